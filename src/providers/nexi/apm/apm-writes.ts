/**
 * Refunds and reversals as money writes: recorded in the ledger before they are sent
 * (send-once.ts), settled when their answer was lost, and followed until the scheme has
 * finished with them.
 *
 * The APM service has no lookup by idempotency key. Its record of a write is the key itself:
 * the same key with the same body replays the first answer. So the way to learn what became
 * of a write is to send the identical request again under its key. That either replays the
 * transaction made, or, if none was made, makes it now; either way exactly one exists after.
 */
import type { Logger } from "@medusajs/framework/types"
import type { ApmClient } from "../../../apm/apm-client"
import type { Envelope, InitializeRequest, TransactionType } from "../../../apm/schemas"
import type { PaymentStatus } from "../../../core/payment-status"
import { InvalidRequestError, NotFoundError, OutcomeUnknownError, UnexpectedResponseError } from "../../../http/errors"
import type { FollowState, MoneyWrite, NewWrite, PaymentLedger, WriteKind } from "../../../modules/nexi-ledger/types"
import { minorToMajorString } from "../../../money/amount"
import { sendOnce } from "../shared/send-once"
import { transactionFields } from "./session-data"
import { readApmPaymentState, schemeReason } from "./transaction-state"

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
const AFTER_REJECTION: Record<ApmWriteKind, { noun: string; consequence: string }> = {
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

/** Builds the request a recorded write was sent with, from the ledger's writes of its transaction. */
export type RequestOfWrite = (write: MoneyWrite, writes: MoneyWrite[]) => InitializeRequest | Promise<InitializeRequest>

export function isApmWrite(write: MoneyWrite): write is MoneyWrite & { kind: ApmWriteKind } {
  return write.kind in TRANSACTION_TYPE
}

export interface ApmWritesDeps {
  client: ApmClient
  ledger: PaymentLedger
  method: string
  logger?: Logger
  /** How long a write may still be on its way (its call with every retry and key replay). */
  inFlightMs: number
}

export class ApmWrites {
  constructor(private readonly deps: ApmWritesDeps) {}

  /**
   * Still "requested" and younger than a call can take: its own call is probably still
   * running. Settled from here, it could be taken over by another refund just before that
   * call marks it as its own, and Medusa would record the same money twice.
   */
  isInFlight(write: MoneyWrite, now = Date.now()): boolean {
    return write.outcome === "requested" && now - new Date(write.created_at).getTime() < this.deps.inFlightMs
  }

  private isUnsettled(write: MoneyWrite): boolean {
    return (write.outcome === "requested" || write.outcome === "unknown") && !this.isInFlight(write)
  }

  /** The new transaction's id. Made at most once, however often this is called. */
  async send(plan: ApmWritePlan): Promise<string> {
    let answer: Envelope | undefined
    const operationId = await sendOnce({
      ledger: this.deps.ledger,
      write: plan.write,
      label: plan.label,
      action: plan.action,
      send: async () => {
        answer = await this.initialize(plan.write, plan.request)
        return transactionIdOf(answer)
      },
      findExecuted: async (record) => {
        answer = await this.replay(record, plan.request)
        return answer && transactionIdOf(answer)
      },
    })
    // No answer means the ledger already knew the outcome: nothing new about the transaction.
    if (answer) await this.track({ ...plan.write, follow_state: "none", gateway_operation_id: operationId }, answer)
    return operationId
  }

  /**
   * Learns the outcome of every write of the transaction that never learnt it (but the one
   * with `exceptKey`, which its own sendOnce settles, and those still in flight). They stay
   * unclaimed: the Medusa record that sent them was rolled back, so the next refund may take
   * them over.
   */
  async settleUnsettled(gatewayRef: string, requestOf: RequestOfWrite, exceptKey?: string): Promise<MoneyWrite[]> {
    const writes = await this.deps.ledger.writesOf(gatewayRef)
    for (const [index, write] of writes.entries()) {
      if (!isApmWrite(write) || !this.isUnsettled(write) || write.idempotency_key === exceptKey) continue
      const answer = await this.replay(write, await requestOf(write, writes))
      if (!answer) {
        writes[index] = await this.deps.ledger.settleWrite(write.idempotency_key, {
          outcome: "refused",
          message: "The service refused it when its idempotency key was sent again: it was not made.",
        })
        continue
      }
      const operationId = transactionIdOf(answer)
      writes[index] = await this.deps.ledger.settleWrite(write.idempotency_key, { outcome: "executed", gateway_operation_id: operationId })
      await this.track(writes[index], answer)
    }
    return writes
  }

  /** Reads every refund or reversal of the transaction still followed, and records where it ended. */
  async followAll(gatewayRef: string): Promise<void> {
    for (const write of await this.deps.ledger.writesOf(gatewayRef)) {
      if (!isApmWrite(write) || write.follow_state !== "following" || !write.gateway_operation_id) continue
      await this.track(write, await this.deps.client.getTransaction(write.gateway_operation_id))
    }
  }

  private async track(
    write: Pick<MoneyWrite, "kind" | "idempotency_key" | "gateway_ref" | "amount_minor" | "currency" | "follow_state" | "gateway_operation_id">,
    envelope: Envelope,
  ): Promise<void> {
    const state = readApmPaymentState(envelope)
    const next = FOLLOW_STATE[state.status]
    // Finished in the first answer: there was nothing to follow.
    if (next === write.follow_state || (next === "done" && write.follow_state === "none")) return
    if (next !== "rejected") {
      await this.deps.ledger.settleWrite(write.idempotency_key, { follow_state: next })
      return
    }
    const reason = schemeReason(envelope) ?? `the transaction is ${state.transactionState ?? "in an unknown state"}`
    await this.deps.ledger.settleWrite(write.idempotency_key, { follow_state: "rejected", message: reason })
    const { noun, consequence } = AFTER_REJECTION[write.kind as ApmWriteKind]
    const amount = `${minorToMajorString(write.amount_minor, write.currency)} ${write.currency}`
    this.deps.logger?.error(
      `nexi: ${this.deps.method} ${noun} ${write.gateway_operation_id} of ${amount} on transaction ${write.gateway_ref} was rejected by the scheme: ${reason}; ${consequence}`,
    )
  }

  private async initialize(write: Pick<MoneyWrite, "kind" | "idempotency_key">, request: InitializeRequest): Promise<Envelope> {
    try {
      return await this.deps.client.initializeWithIdempotency(TRANSACTION_TYPE[write.kind as ApmWriteKind], request, write.idempotency_key)
    } catch (error) {
      // The key is known with another body: something was made under it, and this request cannot tell what.
      if (isKeyConflict(error)) throw new OutcomeUnknownError("apm", (error as Error).message, { cause: error })
      throw error
    }
  }

  /** The answer of the transaction made under the write's key, or undefined when none moves money. */
  private async replay(write: Pick<MoneyWrite, "kind" | "idempotency_key">, request: InitializeRequest): Promise<Envelope | undefined> {
    try {
      return await this.initialize(write, request)
    } catch (error) {
      // Refused (400), unknown (404), or created but rejected (201): no money moved under this key.
      if (error instanceof InvalidRequestError || error instanceof NotFoundError) return undefined
      throw error
    }
  }
}

/**
 * A 400 naming the Idempotency-Key header (fault params `header=Idempotency-Key`): the key
 * was used for a different body. Read as "not made" it would let the write be sent again.
 */
function isKeyConflict(error: unknown): boolean {
  return error instanceof InvalidRequestError && error.details.some((detail) => detail.description.includes("header=Idempotency-Key"))
}

function transactionIdOf(envelope: Envelope): string {
  const id = transactionFields(envelope).transaction_id
  if (!id) throw new UnexpectedResponseError("apm", "The mobile payment service accepted the write but named no transaction")
  return id
}
