/**
 * Refunds and reversals as money writes: built with the configured merchant and scheme
 * (apm-requests.ts), sent through the one sender (send-once.ts), found again by their
 * request's key (below: the service has no lookup, so the identical request, rebuilt from the
 * ledger, is sent again under the same key), settled and matched to their Medusa rows like card
 * writes, and followed until the scheme has finished with them. Since settling sends again, a
 * reversal Medusa gave up on is settled without sending once the payment it reverses is paid
 * (refusedAsPaidSince).
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { ApmClient } from "../../apm/apm-client"
import type { ApmMethod, Envelope, ExtendedEnvelope, InitializeRequest, TransactionType } from "../../apm/schemas"
import { InvalidRequestError, NotFoundError, OutcomeUnknownError, UnexpectedResponseError } from "../../http/errors"
import type { FollowState, MoneyWrite, NewWrite, PaymentLedger, WriteKind } from "../../modules/nexi-ledger/types"
import { minorMoneyText } from "../../money/amount"
import { idempotencyUuid } from "../idempotency"
import type { ApmOptions } from "../options"
import { isUnsettled, type MedusaRows, orphanedWrites, type Recovery, sendOnce, settledWritesOf } from "../send-once"
import type { PaymentStatus } from "../session-data"
import {
  followUpRequest,
  type OriginalPayment,
  originalFromTransaction,
  type RefundTotals,
  refundsBefore,
  type Sender,
} from "./apm-requests"
import { readMobileTransaction, schemeReason } from "./mobile-transaction"

// Recovery of a mobile-payment write by its request's key. The APM service has no lookup by
// idempotency key: its record of a write is the key itself, and the same key with the same
// body replays the first answer. So what became of a write is learnt by sending the identical
// request again under its key. That either replays the transaction made, or, if none was made,
// makes it now; either way exactly one exists after.

/**
 * A 400 naming the Idempotency-Key header (fault params `header=Idempotency-Key`): the key
 * was used for a different body. Read as "not made" it would let the write be sent again.
 */
function isKeyConflict(error: unknown): boolean {
  return (
    error instanceof InvalidRequestError &&
    error.details.some((detail) => detail.description.includes("header=Idempotency-Key"))
  )
}

export function transactionIdOf(envelope: Envelope): string {
  const transaction = envelope.response?.request?.transaction
  const id = transaction?.transactionId ?? envelope.nextLink?.params?.transactionId
  if (id === undefined)
    throw new UnexpectedResponseError("apm", "The mobile payment service accepted the write but named no transaction")
  return String(id)
}

/** One request of a write, under its key: sent first, and sent again identically to find it. */
export class ByRequestKey implements Recovery {
  // The key makes a repeat harmless: a refusal means nothing was made under it.
  readonly refusalMayMeanMade = false
  /** The service's last answer for the key, when it named a transaction. */
  answer?: Envelope

  constructor(
    private readonly client: ApmClient,
    private readonly type: TransactionType,
    private readonly request: InitializeRequest,
    private readonly key: string,
    readonly whenUnreadable: Recovery["whenUnreadable"] = "wait",
  ) {}

  /** Sends the request; the new transaction's id. */
  async send(): Promise<string> {
    try {
      this.answer = await this.client.initializeWithIdempotency(this.type, this.request, this.key)
    } catch (error) {
      // The key is known with another body: something was made under it, and this request cannot tell what.
      if (isKeyConflict(error)) throw new OutcomeUnknownError("apm", (error as Error).message, { cause: error })
      throw error
    }
    return transactionIdOf(this.answer)
  }

  /** The transaction made under the key, or undefined when none moves money. */
  async find(): Promise<string | undefined> {
    try {
      return await this.send()
    } catch (error) {
      // Refused (400), unknown (404), or created but rejected (201): no money moved under this key.
      if (error instanceof InvalidRequestError || error instanceof NotFoundError) return undefined
      throw error
    }
  }
}

export type ApmWriteKind = Extract<WriteKind, "apm_refund" | "apm_reversal">

const TRANSACTION_TYPE: Record<ApmWriteKind, TransactionType> = { apm_refund: "refund", apm_reversal: "reversal" }

/** A refund or reversal transaction's state, as the ledger follows it. */
const FOLLOW_STATE: Record<PaymentStatus, FollowState> = {
  pending: "following",
  authorized: "following",
  captured: "done",
  error: "rejected",
  canceled: "rejected",
}

/** What is left to do when the scheme rejects a write it had accepted: Medusa already recorded it. */
export const AFTER_REJECTION: Record<ApmWriteKind, { noun: string; consequence: string }> = {
  apm_refund: { noun: "refund", consequence: "Medusa still counts it as refunded — refund the shopper another way" },
  apm_reversal: { noun: "reversal", consequence: "the payment was not reversed — reverse or refund it at the scheme" },
}

export interface ApmWritePlan {
  write: NewWrite & { kind: ApmWriteKind }
  /** Exactly the body sent, and sent again to settle the write. */
  request: InitializeRequest
  /** "refund of 12.20 EUR", for messages. */
  label: string
  action: string
}

export interface SettleOptions {
  /** The new write's own key, which its own sendOnce settles. */
  exceptKey?: string
  /** What the caller was asked to do, for messages. */
  action?: string
  /**
   * The caller takes no refund over after settling (the job, unlike a new refund): a refund
   * found made that no Medusa refund records is logged as a warning.
   */
  warnUnrecorded?: boolean
}

/** Builds the request a recorded write was sent with, from the ledger's writes of its transaction. */
export type RequestOfWrite = (write: MoneyWrite, writes: MoneyWrite[]) => InitializeRequest | Promise<InitializeRequest>

export function isApmWrite(write: MoneyWrite): write is MoneyWrite & { kind: ApmWriteKind } {
  return write.kind in TRANSACTION_TYPE
}

function apmWriteLabel(write: Pick<MoneyWrite, "kind" | "amount_minor" | "currency">): string {
  return `${AFTER_REJECTION[write.kind as ApmWriteKind]?.noun ?? write.kind} of ${minorMoneyText(write.amount_minor, write.currency)}`
}

export interface ApmWritesDeps {
  apm: ApmOptions
  client: ApmClient
  ledger: PaymentLedger
  /** Medusa's refund rows, read by the id a refund write carries. */
  rows: MedusaRows
  method: ApmMethod
  logger?: Logger
}

export interface ReversalOrder {
  origin: MoneyWrite["origin"]
  /** What the idempotency key is derived from. */
  key: string
  medusaRef: string | null
  action: string
}

export class ApmWrites {
  constructor(readonly deps: ApmWritesDeps) {}

  get sender(): Sender {
    return { merchantId: this.deps.apm.merchantId, method: this.deps.method }
  }

  /** `refunded`: what the payment data counts as refunded, for refunds the ledger may not know. */
  requestOf(original: OriginalPayment, refunded?: RefundTotals): RequestOfWrite {
    return (write, writes) =>
      followUpRequest(
        this.sender,
        original,
        write.kind === "apm_reversal"
          ? { terminalReference: this.terminalReference("settle the reversal") }
          : {
              refundMinor: BigInt(write.amount_minor),
              before: refundsBefore(writes, write.idempotency_key, original.amount, refunded).before,
            },
      )
  }

  /** Reverses the whole payment; the reversal's transaction id. */
  reverse(original: OriginalPayment, order: ReversalOrder): Promise<string> {
    const request = followUpRequest(this.sender, original, { terminalReference: this.terminalReference(order.action) })
    const { currencyCode: currency, totalAmount } = original.amount
    return this.send({
      write: {
        kind: "apm_reversal",
        origin: order.origin,
        idempotency_key: idempotencyUuid(order.key),
        gateway_ref: original.transactionId,
        target_ref: original.transactionId,
        amount_minor: String(totalAmount),
        currency,
        medusa_ref: order.medusaRef,
      },
      request,
      label: `reversal of ${minorMoneyText(totalAmount, currency)}`,
      action: order.action,
    })
  }

  /** The payment as the service holds it, for a transaction no live session describes. */
  heldAtService(transactionId: string, envelope: ExtendedEnvelope, action: string): OriginalPayment {
    const original = originalFromTransaction(transactionId, envelope)
    if (original) return original
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: the mobile payment service does not say who paid transaction ${transactionId}, and a refund or reversal must name the same consumer.`,
    )
  }

  private terminalReference(action: string): string {
    if (this.deps.apm.terminalReference) return this.deps.apm.terminalReference
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not ${action}: the mobile payment service needs a terminal reference for a reversal. Set the Nexi provider option apm.terminalReference.`,
    )
  }

  /**
   * Still "requested" and younger than a call can take: its own call is probably still
   * running. Settled from here, it could be taken over by another refund just before that
   * call marks it as its own, and Medusa would record the same money twice.
   */
  isInFlight(write: MoneyWrite): boolean {
    return write.outcome === "requested" && !isUnsettled(write)
  }

  /**
   * A reversal Medusa asks for is keyed by the transaction, so Medusa cancelling again sends this
   * same request, which the service answers once: staff are told to send it again. A refund is
   * keyed by Medusa's refund, new at every press, and a release is the job's: those wait for it.
   */
  private recoveryOf(
    write: Pick<MoneyWrite, "kind" | "idempotency_key"> & Partial<Pick<MoneyWrite, "origin">>,
    request: InitializeRequest,
  ): ByRequestKey {
    const type = TRANSACTION_TYPE[write.kind as ApmWriteKind]
    // A new write's origin defaults to medusa, as the ledger records it.
    const repeatable = type === "reversal" && (write.origin ?? "medusa") === "medusa"
    return new ByRequestKey(this.deps.client, type, request, write.idempotency_key, repeatable ? "repeat" : "wait")
  }

  /** The new transaction's id. Made at most once, however often this is called. */
  async send(plan: ApmWritePlan): Promise<string> {
    const recover = this.recoveryOf(plan.write, plan.request)
    const operationId = await sendOnce({
      ledger: this.deps.ledger,
      write: plan.write,
      label: plan.label,
      action: plan.action,
      send: () => recover.send(),
      recover,
    })
    // No answer means the ledger already knew the outcome: nothing new about the transaction.
    if (recover.answer)
      await this.track({ ...plan.write, follow_state: "none", gateway_operation_id: operationId }, recover.answer)
    return operationId
  }

  /**
   * Learns the outcome of every write of the transaction that never learnt it (but the one
   * with `exceptKey`, which its own sendOnce settles, and those still in flight), and matches
   * each to its Medusa refund row by id: a write whose row stands is that row's; only one
   * whose row is gone may be taken over by the next refund.
   */
  async settleUnsettled(
    gatewayRef: string,
    requestOf: RequestOfWrite,
    { exceptKey, action = "settle the refund", warnUnrecorded = false }: SettleOptions = {},
  ): Promise<MoneyWrite[]> {
    const recoveries: Array<{ write: MoneyWrite; recover: ByRequestKey }> = []
    const writes = await settledWritesOf(
      {
        ledger: this.deps.ledger,
        rows: this.deps.rows,
        action,
        logger: this.deps.logger,
        label: apmWriteLabel,
        resendOf: async (write, all) => {
          if (!isApmWrite(write)) return undefined
          if (await this.refusedAsPaidSince(write, action)) return undefined
          const recover = this.recoveryOf(write, await requestOf(write, all))
          recoveries.push({ write, recover })
          return { send: () => recover.send(), recover }
        },
      },
      gatewayRef,
      exceptKey,
    )
    for (const { write, recover } of recoveries) {
      const settled = writes.find((other) => other.id === write.id)
      if (settled?.outcome === "executed" && recover.answer) await this.track(settled, recover.answer)
    }
    const after = await this.deps.ledger.writesOf(gatewayRef)
    if (warnUnrecorded)
      this.warnUnrecorded(after.filter((write) => recoveries.some((recovery) => recovery.write.id === write.id)))
    return after
  }

  /**
   * Refunds just found made whose Medusa refund is gone (Medusa rolled it back after the lost
   * answer): the shopper has the money back and Medusa does not show it. Nobody else is told:
   * the service lists no refunds that a sync could record, as the card gateway's order does.
   */
  private warnUnrecorded(settled: MoneyWrite[]): void {
    for (const write of orphanedWrites(settled, "apm_refund")) {
      this.deps.logger?.warn(
        `nexi: ${this.deps.method} refund ${write.gateway_operation_id} of ${minorMoneyText(write.amount_minor, write.currency)} on transaction ${write.gateway_ref} was made by the service after Medusa had given up on it (its answer was lost, and Medusa's refund ${write.medusa_ref ?? "(none)"} is gone): Medusa does not show this refund. Refunding the same amount in Medusa records it without refunding the shopper again.`,
      )
    }
  }

  /**
   * A reversal Medusa asked for (an order cancel, a payment timed out or replaced) whose answer
   * was lost is settled here later, by the job or before another write, and settling it sends
   * it again: sent now, it would be made now, behind Medusa's back, when the shopper may have
   * paid since and Medusa recorded that payment. So the payment it reverses is read first. Paid
   * (authorized or finalized), the reversal was never made, since a made one would have
   * cancelled it: it is settled refused, nothing is sent, and a warning says so. Cancelled, the
   * reversal was made and sending it again only replays it; still waiting for the shopper,
   * sending it now does what was asked. A release answers to no Medusa record (money no session
   * owns) and is always sent. Medusa asking again itself (an order cancel pressed again) goes
   * through `send`, not here, and is made: Medusa wants it now.
   * @returns true when the write is settled refused and must not be sent
   */
  private async refusedAsPaidSince(write: MoneyWrite & { kind: ApmWriteKind }, action: string): Promise<boolean> {
    if (write.kind !== "apm_reversal" || write.origin === "release") return false
    const paymentId = write.target_ref ?? write.gateway_ref
    let payment: ReturnType<typeof readMobileTransaction>
    try {
      payment = readMobileTransaction(await this.deps.client.getTransaction(paymentId))
    } catch (error) {
      throw this.unsettled(action, write, `the payment it reverses cannot be read now (${(error as Error).message})`)
    }
    // Read as pending, but it may be paid: sending the reversal could take the money back.
    if (payment.unrecognized)
      throw this.unsettled(
        action,
        write,
        `the payment it reverses is in a state the plugin does not know (${payment.unrecognized})`,
      )
    if (payment.status !== "authorized" && payment.status !== "captured") return false
    const state = payment.transactionState ?? payment.status
    await this.deps.ledger.updateWrite(write.idempotency_key, {
      outcome: "refused",
      message: `never made: its answer was lost, and the payment it reverses is paid (${state}), which a made reversal would have cancelled. Not sent again now, behind Medusa's back: Medusa may record that payment.`,
    })
    this.deps.logger?.warn(
      `nexi: ${this.deps.method} ${apmWriteLabel(write)} of transaction ${paymentId} was never made (its answer was lost) and the shopper has paid since (${state}): it was not sent again, so the payment stands as Medusa may record it. To give the money back, cancel or refund the payment in Medusa.`,
    )
    return true
  }

  private unsettled(action: string, write: MoneyWrite, why: string): MedusaError {
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: an earlier ${apmWriteLabel(write)} on this payment has an unknown outcome, and ${why}. Nothing was sent; try again once it can be read.`,
    )
  }

  /** Reads every refund or reversal of the transaction still followed, and records where it ended. */
  async followAll(gatewayRef: string): Promise<void> {
    for (const write of await this.deps.ledger.writesOf(gatewayRef)) {
      if (!isApmWrite(write) || write.follow_state !== "following" || !write.gateway_operation_id) continue
      await this.track(write, await this.deps.client.getTransaction(write.gateway_operation_id))
    }
  }

  private async track(
    write: Pick<
      MoneyWrite,
      "kind" | "idempotency_key" | "gateway_ref" | "amount_minor" | "currency" | "follow_state" | "gateway_operation_id"
    >,
    envelope: Envelope,
  ): Promise<void> {
    const state = readMobileTransaction(envelope)
    const next = FOLLOW_STATE[state.status]
    // Finished in the first answer: there was nothing to follow.
    if (next === write.follow_state || (next === "done" && write.follow_state === "none")) return
    if (next !== "rejected") {
      await this.deps.ledger.updateWrite(write.idempotency_key, { follow_state: next })
      return
    }
    const reason = schemeReason(envelope) ?? `the transaction is ${state.transactionState ?? "in an unknown state"}`
    await this.deps.ledger.updateWrite(write.idempotency_key, { follow_state: "rejected", message: reason })
    const { noun, consequence } = AFTER_REJECTION[write.kind as ApmWriteKind]
    const amount = minorMoneyText(write.amount_minor, write.currency)
    this.deps.logger?.error(
      `nexi: ${this.deps.method} ${noun} ${write.gateway_operation_id} of ${amount} on transaction ${write.gateway_ref} was rejected by the scheme: ${reason}; ${consequence}`,
    )
  }
}
