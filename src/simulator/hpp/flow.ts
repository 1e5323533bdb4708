/**
 * What a shopper does on the hosted page, as plain functions: the page (routes.ts) and the
 * control API (POST /__sim/hpp/{orderId}/pay and /cancel) both call these, so a test that
 * skips the browser exercises exactly the code a browser would.
 *
 * Operations an order gets (all ECOMMERCE; "payment type" is AUTHORIZATION, or CAPTURE for
 * captureType IMPLICIT):
 *   approved card        payment type/THREEDS_VALIDATED, then payment type/AUTHORIZED (EXECUTED if IMPLICIT)
 *   challenge passed     the same, with additionalData.threeDS "CHALLENGE"
 *   challenge failed     payment type/THREEDS_FAILED
 *   3DS-failure card     payment type/THREEDS_FAILED
 *   declined card        payment type/THREEDS_VALIDATED, then payment type/DECLINED
 *   shopper cancels      payment type/CANCELED
 *   expired saved card   payment type/DECLINED (no 3DS: the card is refused before authentication)
 * The merchant is notified of the last operation of each outcome. An approved outcome saves the
 * card when the order's recurrence asks for it (gateway/contracts.ts). A payment link's page
 * (gateway/payment-links.ts) is this page too: its operations carry paymentLinkId, the approved
 * one pays the link, and a cancelled or expired link takes nothing.
 *
 * A Build session (card-fields/) takes the same path in two steps: its fields check the card
 * (checkEntry) and POST /build/finalize_payment pays with it (pay); its challenge is this page's.
 * A wallet (paymentService GOOGLEPAY or APPLEPAY) pays as an approved frictionless card, the
 * operations naming the wallet as their circuit.
 */
import type { OperationResult, OperationType, Wallet } from "../../gateway/schemas"
import { buildRefusal } from "../card-fields/sessions"
import { type CardField, type CheckedCard, checkCard } from "../cards"
import { paymentStep, recordCardOperation } from "../gateway/card-payments"
import type { GatewayContext } from "../gateway/context"
import { cardOnFileOf, saveCardOnFile } from "../gateway/contracts"
import type { ThreeDSOutcome } from "../gateway/operation-records"
import { linkRefusal } from "../gateway/payment-links"
import type { OperationRecord, StoredOrder } from "../gateway/store"
import type { DeliveryOutcome } from "../notifications"
import { type PayingCard, payingCard, type ShopperEntry } from "./card-entry"

export interface HostedOutcome {
  /** Result of the last operation: AUTHORIZED, EXECUTED, DECLINED, THREEDS_FAILED or CANCELED. */
  result: OperationResult
  operations: OperationRecord[]
  /** resultUrl, or cancelUrl after a cancel; undefined when the merchant gave none. */
  redirectUrl?: string
  /** Undefined when the order has no notificationUrl. */
  notification?: Promise<DeliveryOutcome>
  /** Why a payment was declined, when the shopper can be told: "the saved card expired at the end of 05/26". */
  declineReason?: string
}

/** closed: nothing more can happen on the page; reason says why when it is not the outcome (a link's expiry). */
export type Closed = { kind: "closed"; reason?: string }

export type CardSubmission =
  | { kind: "done"; outcome: HostedOutcome }
  | { kind: "challenge" }
  | { kind: "invalid"; field: CardField; message: string }
  | Closed

export type ChallengeAnswer = { kind: "done"; outcome: HostedOutcome } | Closed

export function isApproved(outcome: { result: OperationResult }): boolean {
  return outcome.result === "AUTHORIZED" || outcome.result === "EXECUTED"
}

interface FinishDetails {
  threeDS?: ThreeDSOutcome
  declineReason?: string
  /** The operations' type when it is not the payment's own (a Build session's cancel). */
  operationType?: OperationType
}

/** The wallet an order pays with, or undefined for a card. */
export function walletOf(order: StoredOrder): Wallet | undefined {
  const service = order.hosted?.paymentSession.paymentService
  return service === "GOOGLEPAY" || service === "APPLEPAY" ? service : undefined
}

/** The card a wallet holds: the simulator's wallets carry an approved sandbox card. */
const WALLET_CARD = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }

export class HostedPayments {
  constructor(private readonly context: GatewayContext) {}

  /** Why the page can take nothing more, or undefined while it can. */
  closedReason(order: StoredOrder): Closed | undefined {
    const now = this.context.clock.now()
    const reason = linkRefusal(order, now) ?? buildRefusal(order, now)
    if (reason) return { kind: "closed", reason }
    return order.hosted!.state === "closed" ? { kind: "closed" } : undefined
  }

  submitCard(order: StoredOrder, entry: ShopperEntry): CardSubmission {
    const closed = this.closedReason(order)
    if (closed) return closed
    if (order.hosted!.state !== "open") return { kind: "closed" }
    const paying = this.checkEntry(order, entry)
    return paying.ok ? this.pay(order, paying) : { kind: "invalid", field: paying.field, message: paying.message }
  }

  /** The card the shopper's entry pays with, or what is wrong with it; nothing is recorded. */
  checkEntry(order: StoredOrder, entry: ShopperEntry): PayingCard {
    const wallet = walletOf(order)
    if (wallet) return { ok: false, field: "pan", message: `is not taken: this order pays with ${wallet}` }
    return payingCard(cardOnFileOf(this.context.store, order), entry, this.context.clock.now())
  }

  /** Pays an open order with a checked card: the outcome, or the 3DS challenge it waits for. */
  pay(order: StoredOrder, paying: { card: CheckedCard; declineReason?: string }): CardSubmission {
    const hosted = order.hosted!
    const { card, declineReason } = paying
    if (declineReason) {
      return { kind: "done", outcome: this.finish(order, card, ["DECLINED"], { declineReason }) }
    }
    switch (card.behaviour) {
      case "CHALLENGE":
        hosted.state = "challenge"
        hosted.challengedCard = card
        this.context.store.changed()
        return { kind: "challenge" }
      case "FAIL_3DS":
        return { kind: "done", outcome: this.finish(order, card, ["THREEDS_FAILED"], { threeDS: "FAILED" }) }
      case "DECLINE":
        return {
          kind: "done",
          outcome: this.finish(order, card, ["THREEDS_VALIDATED", "DECLINED"], { threeDS: "FRICTIONLESS" }),
        }
      case "APPROVE":
        return {
          kind: "done",
          outcome: this.finish(order, card, ["THREEDS_VALIDATED", this.approvedResult(order)], {
            threeDS: "FRICTIONLESS",
          }),
        }
    }
  }

  /** The shopper pays with the order's wallet. */
  payWithWallet(order: StoredOrder): ChallengeAnswer {
    const closed = this.closedReason(order)
    if (closed) return closed
    const check = checkCard(WALLET_CARD, this.context.clock.now(), { cvvRequired: false })
    if (!walletOf(order) || !check.ok) return { kind: "closed" }
    const results: OperationResult[] = ["THREEDS_VALIDATED", this.approvedResult(order)]
    return { kind: "done", outcome: this.finish(order, check.card, results, { threeDS: "FRICTIONLESS" }) }
  }

  answerChallenge(order: StoredOrder, passed: boolean): ChallengeAnswer {
    const hosted = order.hosted!
    const closed = this.closedReason(order)
    if (closed) return closed
    if (hosted.state !== "challenge" || !hosted.challengedCard) return { kind: "closed" }
    const card = hosted.challengedCard
    const results: OperationResult[] = passed ? ["THREEDS_VALIDATED", this.approvedResult(order)] : ["THREEDS_FAILED"]
    return { kind: "done", outcome: this.finish(order, card, results, { threeDS: passed ? "CHALLENGE" : "FAILED" }) }
  }

  /**
   * The shopper abandons the page, before or during the challenge. operationType: a Build
   * session's cancel records a CANCEL (gateway-facts.md), the page's a payment type/CANCELED.
   */
  cancel(order: StoredOrder, operationType?: OperationType): ChallengeAnswer {
    const closed = this.closedReason(order)
    if (closed) return closed
    return { kind: "done", outcome: this.finish(order, order.hosted!.challengedCard, ["CANCELED"], { operationType }) }
  }

  private approvedResult(order: StoredOrder): OperationResult {
    const session = order.hosted!.paymentSession
    return paymentStep(session.captureType, session.actionType).approvedResult
  }

  private finish(
    order: StoredOrder,
    card: CheckedCard | undefined,
    results: OperationResult[],
    details: FinishDetails = {},
  ): HostedOutcome {
    const hosted = order.hosted!
    const session = hosted.paymentSession
    const step = paymentStep(session.captureType, session.actionType)
    const operations = results.map(
      (operationResult) =>
        recordCardOperation(this.context, order, {
          channel: "ECOMMERCE",
          operationType: details.operationType ?? step.operationType,
          operationResult,
          amount: session.amount,
          card,
          threeDS: details.threeDS,
          paymentLinkId: order.paymentLink?.linkId,
          wallet: walletOf(order),
        }).record,
    )
    const last = operations.at(-1)!
    const result = last.operationResult
    if (order.paymentLink && isApproved({ result })) order.paymentLink.paidByOperationId = last.operationId
    hosted.state = "closed"
    hosted.challengedCard = undefined
    this.context.store.changed()
    // Before the notification goes out: a merchant may use the contract as soon as it hears of the payment.
    if (card && isApproved({ result })) saveCardOnFile(this.context.store, order, card, this.context.clock.now())
    return {
      result,
      operations,
      redirectUrl: result === "CANCELED" ? session.cancelUrl : session.resultUrl,
      notification: this.context.notices.notify(order, last),
      ...(details.declineReason ? { declineReason: details.declineReason } : {}),
    }
  }
}
