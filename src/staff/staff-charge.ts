/**
 * A charge staff make at once under a staff attempt's gateway order id (a MOTO payment, a
 * saved card's merchant-initiated charge), then record in Medusa (order-collection.ts).
 *
 * Never charged twice, whatever is lost on the way: the charge goes through the one sender
 * (core/send-once.ts), found again by its order id (core/card/card-writes.ts). The order id
 * is fixed per attempt and the gateway refuses one it has seen; a repeat after a lost answer
 * (by the transport, or by staff sending the request again) first reads the gateway's order
 * for that id, and records the charge found there instead of charging again. A declined card
 * changes nothing in Medusa but the session, marked failed.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { readCardOrder } from "../core/card/card-order"
import { isCharged, operationIdOf, staffChargeRecovery } from "../core/card/card-writes"
import { NotMadeError, sendOnce } from "../core/send-once"
import { authorizeStaffSessionOnce, convertDraft, STAFF_CHANNEL_NOUNS } from "../core/staff-sessions"
import { gatewayClientFor, ledgerOf } from "../core/store-entries"
import type { MotoRequest, OperationResponse, OrderDetails } from "../gateway/schemas"
import { InvalidRequestError } from "../http/errors"
import type { WriteKind } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"
import type { NexiCardPaymentView, NexiStaffChargeResponse } from "./contract"
import { markSessionFailed, type StaffAttempt } from "./order-collection"
import { cardPaymentView } from "./payment-views"

export interface StaffChargeRequest {
  attempt: StaffAttempt
  kind: Extract<WriteKind, "moto" | "mit_charge">
  idempotencyKey: string
  /** What Medusa's staff asked for, for messages: "take the MOTO payment". */
  action: string
  /** The order the request opens, as the gateway's record of an answered charge. */
  order: MotoRequest["order"]
  send(): Promise<OperationResponse>
  /** What staff see when the request fails without a decline (card data refused, gateway down). */
  requestError(error: unknown): Error
  /** The card as staff know it, for the answer's sentence: "VISA ***7289". */
  cardText(payment: NexiCardPaymentView): string
  /** How it was charged, appended to the card in that sentence: " by MOTO", or nothing. */
  how: string
}

/** The card was declined: the gateway answered, and charged nothing. */
class CardNotAccepted extends NotMadeError {
  constructor(readonly reason: string | undefined) {
    super(reason ?? "The card was not accepted.")
  }
}

export async function chargeOnce(
  container: MedusaContainer,
  request: StaffChargeRequest,
): Promise<NexiStaffChargeResponse> {
  const { attempt } = request
  const orderId = attempt.data.order_id
  const gateway = gatewayClientFor(container, attempt.providerId)
  const recover = staffChargeRecovery(gateway, orderId)
  let answered: OrderDetails | undefined
  await sendOnce({
    ledger: ledgerOf(container),
    write: {
      kind: request.kind,
      origin: "staff",
      idempotency_key: request.idempotencyKey,
      gateway_ref: orderId,
      amount_minor: attempt.amountMinor,
      currency: attempt.currency,
      medusa_ref: attempt.sessionId,
    },
    label: `${STAFF_CHANNEL_NOUNS[attempt.channel]} of ${minorToMajorString(attempt.amountMinor, attempt.currency)} ${attempt.currency}`,
    action: request.action,
    recover,
    send: async () => {
      const { operation } = await request.send()
      answered = { orderStatus: { order: request.order }, operations: [operation], paymentLinks: [] }
      const state = readCardOrder(answered)
      if (!isCharged(state)) throw new CardNotAccepted(state.reason)
      return operationIdOf(operation)
    },
  }).catch(async (error) => {
    if (error instanceof CardNotAccepted) {
      await markSessionFailed(container, attempt, error.reason ?? "The card was not accepted.")
      throw new MedusaError(
        MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
        `The card was not accepted: ${error.reason ?? "no reason given."}`,
      )
    }
    if (error instanceof InvalidRequestError)
      await markSessionFailed(container, attempt, "The gateway refused the request.")
    throw request.requestError(error)
  })
  // Answered from the ledger (an earlier request charged it): the gateway's record says how.
  const charged = answered ?? recover.found ?? (await gateway.getOrder(orderId))
  const state = readCardOrder(charged)
  if (state.status === "pending") {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The gateway has not finished the charge of gateway order ${orderId} yet. Send the same request again shortly: it reads the gateway first and never charges twice.`,
    )
  }
  const recorded = await authorizeStaffSessionOnce(container, attempt.sessionId, orderId)
  if (!recorded) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The card was charged (gateway order ${orderId}) but payment session ${attempt.sessionId} is no longer waiting to be recorded in Medusa. Look at the order's payments before doing anything else.`,
    )
  }
  const paymentId = recorded.paymentId
  // Whoever recorded the payment converts the draft: the job may have, finding the charge first.
  const converted =
    attempt.plan.isDraft && recorded.authorizedNow ? await convertDraft(container, attempt.order.id) : ""
  const details = await gateway.getOrder(orderId).catch(() => charged)
  const payment = cardPaymentView({ payment_id: paymentId, provider_id: attempt.providerId }, details)
  const paid = `${minorToMajorString(attempt.amountMinor, attempt.currency)} ${attempt.currency}`
  const captured = state.status === "captured"
  const outcome = captured ? "captured" : "authorized; capture it from the order's payments"
  return {
    order_id: attempt.order.id,
    payment,
    status: captured ? "captured" : "authorized",
    message: `Charged ${paid} to ${request.cardText(payment)}${request.how} (gateway order ${orderId}): ${outcome}.${converted}`,
  }
}
