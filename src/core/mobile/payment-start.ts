/**
 * A mobile payment's start, sent once through the one sender (send-once.ts), like every write.
 * The start asks the scheme to put a payment request in the shopper's app; the shopper can
 * approve it there whatever the store heard. So a start whose answer was lost must not be
 * forgotten: Medusa deletes the session whose start failed, nothing would ever point at the
 * transaction, and money the shopper approves on it would stay taken with no order.
 *
 * The write is recorded before it is sent, with its request (`resend`): the service finds a
 * transaction only by the same body under the same key, and the session the body was built
 * from is gone. The job sends it again (`recover`), learns the transaction, and opens its
 * attempt as one no session owns, which the sync then reverses while it waits in the app, or
 * releases if the shopper paid it (`watchOrRelease`, apm-transactions.ts). See docs/ledger.md,
 * "A mobile payment's start".
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { ApmClient } from "../../apm/apm-client"
import { TransactionRejectedError } from "../../apm/errors"
import type { ApmMethod, Envelope, InitializeRequest } from "../../apm/schemas"
import { type MoneyWrite, type NewWrite, PAYMENT_START_KIND, type PaymentLedger } from "../../modules/nexi-ledger/types"
import { minorMoneyText } from "../../money/amount"
import { sendOnce } from "../send-once"
import { ByRequestKey } from "./apm-writes"

const ACTION = "start the payment"
export const RECOVER = "find a mobile payment whose start's answer was lost"

export interface PaymentStartsDeps {
  client: ApmClient
  ledger: PaymentLedger
  /** The provider as the ledger records it (`nexi-apm-psp-b_nexi`). */
  providerKey: string
  method: ApmMethod
  logger?: Logger
}

export interface PaymentStart {
  sessionId: string
  /** Derived from the session, the request and the transaction it replaces: the same again is a retry. */
  key: string
  request: InitializeRequest
  amountMinor: string
  currency: string
}

export class PaymentStarts {
  constructor(private readonly deps: PaymentStartsDeps) {}

  /**
   * The service's answer to the start. A decline (201) throws TransactionRejectedError as it
   * came; a lost answer throws words for the shopper, and the job finds the transaction.
   */
  async send(start: PaymentStart): Promise<Envelope> {
    const write: NewWrite = {
      kind: PAYMENT_START_KIND,
      idempotency_key: start.key,
      gateway_ref: start.sessionId,
      amount_minor: start.amountMinor,
      currency: start.currency,
      medusa_ref: start.sessionId,
      // As text: its bytes are what the key was first sent with, whatever the database does to JSON.
      resend: { provider_identifier: this.deps.providerKey, body: JSON.stringify(start.request) },
    }
    const started = await startOnce(this.deps, write, start.request, ACTION)
    if (started === "lost") throw lostStart(this.deps.method)
    await forgetRequestOf(this.deps, write)
    if ("refusal" in started) throw started.refusal
    if (!started.answer) throw lostStart(this.deps.method)
    return started.answer
  }

  /**
   * Sends a start whose answer was lost again under its key: the service replays the
   * transaction it made, or makes it now (a start made already is answered from the ledger).
   * Either way its attempt is opened as one no session owns (its session was deleted when the
   * start failed), for the sync to watch and release. Throws while the service cannot be read;
   * a start the service refuses is settled refused.
   */
  async recover(write: MoneyWrite): Promise<string | undefined> {
    const { resend } = write
    // A start made is answered from the ledger; one still to find needs its request.
    const made = write.outcome === "executed" && write.gateway_operation_id
    if (!resend || (!made && !resend.body)) {
      await this.deps.ledger.updateWrite(write.idempotency_key, { outcome: "refused", message: "no request recorded" })
      return undefined
    }
    const started = made
      ? { transactionId: made }
      : await startOnce(this.deps, write, JSON.parse(resend.body as string) as InitializeRequest, RECOVER)
    if (started === "lost") throw new Error("the service still gives no answer")
    await forgetRequestOf(this.deps, write)
    if ("refusal" in started) return undefined
    const { transactionId } = started
    await this.deps.ledger.openAttempt({
      provider_identifier: resend.provider_identifier,
      gateway_ref: transactionId,
      session_id: write.medusa_ref,
      amount_minor: write.amount_minor,
      currency: write.currency,
      state: "superseded",
      next_check_at: new Date(),
    })
    this.deps.logger?.warn(
      `nexi: ${this.deps.method} transaction ${transactionId} of ${labelOf(write)} was started for session ${write.medusa_ref}, whose start failed (its answer was lost, or its attempt could not be recorded); it is watched, and given back if the shopper approves it`,
    )
    return transactionId
  }
}

/**
 * The recorded request holds the shopper's details: once the start's outcome is known nothing
 * needs it, so it is dropped. A failure to drop it changes nothing of the payment: it is logged.
 */
async function forgetRequestOf(deps: PaymentStartsDeps, write: Pick<NewWrite, "idempotency_key" | "resend">) {
  if (!write.resend?.body) return
  try {
    await deps.ledger.updateWrite(write.idempotency_key, { resend: { ...write.resend, body: null } })
  } catch (error) {
    deps.logger?.warn(
      `nexi: could not drop the recorded request of mobile payment start ${write.idempotency_key}: ${(error as Error).message}`,
    )
  }
}

type Started = { transactionId: string; answer?: Envelope } | { refusal: Error } | "lost"

/**
 * The start sent once under its key (send-once.ts): the transaction, with the service's answer
 * when this call had one; the service's refusal when it made nothing; or lost, when not even the
 * key's replay was answered. A ledger that cannot be written throws as the sender says.
 */
async function startOnce(
  deps: PaymentStartsDeps,
  write: NewWrite,
  request: InitializeRequest,
  action: string,
): Promise<Started> {
  const recover = new ByRequestKey(deps.client, "payment", request, write.idempotency_key)
  try {
    const transactionId = await sendOnce({
      ledger: deps.ledger,
      write,
      label: labelOf(write),
      action,
      send: () => recover.send(),
      recover,
    })
    // Made before, so answered from the ledger: the recovery's read by the key (a harmless
    // replay) gives the service's answer, its approval link, again.
    if (!recover.answer) await recover.find()
    return { transactionId, answer: recover.answer }
  } catch (error) {
    // A decline (201) is the service's own answer, which the session shows.
    if (error instanceof TransactionRejectedError) return { refusal: error }
    let recorded: MoneyWrite | undefined
    try {
      // Read, never recorded here: a start the ledger could not record was never sent.
      recorded = (await deps.ledger.writesOf(write.gateway_ref)).find(
        (other) => other.idempotency_key === write.idempotency_key,
      )
    } catch {
      // Nothing tells what became of it: telling the shopper to decline a stray request is safe.
      return "lost"
    }
    if (recorded?.outcome === "refused") return { refusal: error as Error }
    if (recorded?.outcome === "unknown" || recorded?.outcome === "requested") return "lost"
    throw error
  }
}

function labelOf(write: { amount_minor: string; currency: string }): string {
  return `mobile payment of ${minorMoneyText(write.amount_minor, write.currency)}`
}

function lostStart(method: ApmMethod): MedusaError {
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Could not ${ACTION}: the ${method} service did not answer, so it is not known whether the payment request reached the shopper's app. If one arrives, it should be declined: the store gives back any money approved on it. The payment can be started again.`,
  )
}
