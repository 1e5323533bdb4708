/**
 * One store entry's mobile-payment transactions of one scheme, as both the mobile provider and
 * the one sync of a mobile payment (src/core/mobile/mobile-sync.ts) reach them: the configured
 * service, reading a transaction, reversing it, and following its refunds and reversals
 * through the ledger (apm-writes.ts), and starting payments (payment-start.ts). The provider
 * builds it with its own options and ledger, and its sessions (apm-sessions.ts) on it; the sync
 * and the job from the store's configuration (`mobileSyncFor`, `paymentStartsFor`, below).
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { ApmClient } from "../../apm/apm-client"
import type { ApmMethod, ExtendedEnvelope } from "../../apm/schemas"
import { NotFoundError } from "../../http/errors"
import type { PaymentAttempt, PaymentLedger } from "../../modules/nexi-ledger/types"
import { watchAfterRead } from "../attempt-watch"
import { clientsFor } from "../clients"
import { requireField } from "../medusa-errors"
import type { PaymentRecords, SessionRecord } from "../medusa-records"
import type { ApmOptions, NexiOptions } from "../options"
import { apmMethodOfProvider, providerKeyOf } from "../provider-ids"
import { type PaymentStatus, paidInFull } from "../session-data"
import { ledgerOf, loggerOf, paymentRecordsOf, requireNexiOptions } from "../store-entries"
import type { OriginalPayment } from "./apm-requests"
import { type ApmSessionData, readApmSessionData } from "./apm-session-data"
import { ApmWrites, type RequestOfWrite } from "./apm-writes"
import { type MobileTransaction, readMobileTransaction } from "./mobile-transaction"
import { PaymentStarts, RECOVER } from "./payment-start"

const RECONCILE = "reconcile the payment"
const RELEASE = "release the payment"

export interface MobilePaymentRead {
  transactionId: string
  status: PaymentStatus
  reason?: string
  /** What the session asked for, in minor units: the service captures it all when it finalizes. */
  amountMinor: string
  currency: string
}

export interface ApmTransactionsDeps {
  options: NexiOptions
  /** The scheme this provider pays with (docs/contract/apm.md `method`). */
  method: ApmMethod
  /**
   * The ledger, resolved at each use (Medusa may build a provider before the ledger is loaded),
   * or an error naming `action` when the store lacks it.
   */
  ledger: (action: string) => PaymentLedger
  /** Medusa's records: refund rows, read by the id a refund write carries, and sessions. */
  records: PaymentRecords
  /** The provider as the ledger records it (`nexi-apm-psp-b_nexi`). */
  providerKey: string
  logger?: Logger
}

export class ApmTransactions {
  constructor(readonly deps: ApmTransactionsDeps) {}

  /** A field of the session data, or an error naming the provider it was not started with. */
  require<T>(value: T | undefined | null, field: string, action: string): T {
    return requireField(value, field, action, `Nexi ${this.deps.method}`)
  }

  /**
   * The configured service, or a clear error: without `apm` options every mobile payment
   * provider refuses (the card provider still works), and a scheme the store did not list
   * in `apm.methods` refuses to start payments.
   */
  configured(action: string, { starting }: { starting: boolean }): { apm: ApmOptions; client: ApmClient } {
    const apm = this.deps.options.apm
    const client = clientsFor(this.deps.options, this.deps.logger).apm
    if (!apm || !client) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not ${action}: mobile payments are not configured. Add the \`apm\` options (consumerKey, consumerSecret, merchantId, environment) to the Nexi payment provider in medusa-config.`,
      )
    }
    if (starting && !apm.methods.includes(this.deps.method)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `Could not ${action}: the scheme ${this.deps.method} is not enabled. Add it to the Nexi provider option apm.methods (now: ${apm.methods.join(", ")}).`,
      )
    }
    return { apm, client }
  }

  /** The payment's refunds and reversals, through the ledger. */
  writes(action: string): ApmWrites {
    const { apm, client } = this.configured(action, { starting: false })
    return new ApmWrites({
      apm,
      client,
      ledger: this.deps.ledger(action),
      rows: this.deps.records,
      method: this.deps.method,
      logger: this.deps.logger,
    })
  }

  /** The scheme's payment starts, each sent once through the ledger (payment-start.ts). */
  starts(action: string): PaymentStarts {
    const { client } = this.configured(action, { starting: false })
    const { providerKey, method, logger } = this.deps
    return new PaymentStarts({ client, ledger: this.deps.ledger(action), providerKey, method, logger })
  }

  /** The payment as it was sent: refunds and reversals go back the same way. */
  originalOf(data: ApmSessionData, action: string): OriginalPayment {
    const total = Number(this.require(data.amount_minor, "amount_minor", action))
    const vat = Number(data.vat_minor ?? "0")
    return {
      transactionId: this.require(data.transaction_id, "transaction_id", action),
      amount: {
        currencyCode: this.require(data.currency, "currency", action),
        totalAmount: total,
        vatAmount: vat,
        nominalAmount: total - vat,
      },
      consumer: {
        consumerId: this.require(data.consumer_id, "consumer_id", action),
        name: data.consumer_name || "Customer",
      },
    }
  }

  /** Reverses the whole payment; the reversal's transaction id. */
  reverse(data: ApmSessionData, action = "cancel the payment"): Promise<string> {
    const original = this.originalOf(data, action)
    return this.writes(action).reverse(original, {
      origin: "medusa",
      key: `${original.transactionId}:reversal`,
      medusaRef: data.session_id ?? null,
      action,
    })
  }

  /** Best effort: a failure here must not stop Medusa replacing or deleting the session. */
  async reverseIfStillPending(data: ApmSessionData): Promise<void> {
    if (!data.transaction_id || !this.deps.options.apm?.terminalReference) return
    try {
      const state = await this.readTransaction(data)
      if (state.status === "pending") await this.reverse(data)
    } catch (error) {
      this.deps.logger?.warn(
        `nexi: could not reverse pending ${this.deps.method} transaction ${data.transaction_id}: ${(error as Error).message}`,
      )
    }
  }

  async readTransaction(data: ApmSessionData): Promise<MobileTransaction> {
    const { client } = this.configured("read the payment status", { starting: false })
    const envelope = await client.getTransaction(
      this.require(data.transaction_id, "transaction_id", "read the payment status"),
      data.next_link,
    )
    const held = envelope.response?.request?.transaction?.amount
    const holdsLess = Boolean(
      held &&
        data.amount_minor &&
        (held.currencyCode !== data.currency || BigInt(held.totalAmount) < BigInt(data.amount_minor)),
    )
    const reason = "The mobile payment service holds less than the session amount."
    return paidInFull(readMobileTransaction(envelope), holdsLess, reason)
  }

  /** The transaction a session's payment is, if it has one. */
  transactionOf(session: SessionRecord): string | undefined {
    return readApmSessionData(session.data).transaction_id
  }

  /**
   * The session's transaction, read once; undefined when it has none, or the service knows no
   * such one. Timed out first when the shopper took too long to approve it.
   */
  async readPayment(session: SessionRecord): Promise<MobilePaymentRead | undefined> {
    const data = readApmSessionData(session.data)
    const transactionId = data.transaction_id
    if (!transactionId) return undefined
    let state: MobileTransaction
    try {
      state = await this.readTransaction(data)
    } catch (error) {
      // 404: not a transaction of these credentials; nothing to do. Anything else is retried.
      if (error instanceof NotFoundError) return undefined
      throw error
    }
    if (state.status === "pending" && this.pollTimedOut(session)) state = await this.timeOut(data, state)
    return {
      transactionId,
      status: state.status,
      reason: state.reason,
      amountMinor: data.amount_minor ?? "0",
      currency: data.currency ?? "EUR",
    }
  }

  /**
   * The transaction's refunds and reversals, followed and settled. While its live session owns
   * it, a lost answer is sent again from the session's payment; otherwise from what the service
   * still holds.
   */
  async settleWrites(transactionId: string, owner: SessionRecord | undefined): Promise<void> {
    const writes = this.writes(RECONCILE)
    await writes.followAll(transactionId)
    const requestOf: RequestOfWrite = owner
      ? writes.requestOf(this.originalOf(readApmSessionData(owner.data), RECONCILE))
      : async (write, all) => {
          const held = await writes.deps.client.getTransaction(transactionId)
          return writes.requestOf(writes.heldAtService(transactionId, held, RECONCILE))(write, all)
        }
    await writes.settleUnsettled(transactionId, requestOf, { warnUnrecorded: true })
  }

  /**
   * A transaction no live session owns any more (its session was replaced or deleted, or its
   * start's answer was lost) is watched until it ends. While it waits in the shopper's app it is
   * reversed, so it cannot be approved (the session's own reversal was best effort; a lost
   * start's never had one). If the shopper paid it after all, it is released: reversed in full,
   * because nothing in Medusa points at it, so no order will ever come of it and nobody would
   * otherwise see the money held.
   */
  async watchOrRelease(attempt: PaymentAttempt): Promise<void> {
    const writes = this.writes(RELEASE)
    const { apm, client, ledger, logger, method } = writes.deps
    const transactionId = attempt.gateway_ref
    let envelope: ExtendedEnvelope
    try {
      envelope = await client.getTransaction(transactionId)
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error
      // Not a transaction of these credentials (now): read less and less often, then no longer.
      await ledger.updateAttempt(transactionId, watchAfterRead(attempt, "pending", new Date()))
      return
    }
    const state = readMobileTransaction(envelope)
    const paid = state.status === "authorized" || state.status === "captured"
    // Without a terminalReference no reversal can be sent: a pending one is watched until the scheme ends it.
    const approvable = state.status === "pending" && apm.terminalReference !== undefined
    if (!paid && !approvable) {
      await ledger.updateAttempt(transactionId, watchAfterRead(attempt, state.status, new Date(), state.reason))
      return
    }
    const reversalId = await writes.reverse(writes.heldAtService(transactionId, envelope, RELEASE), {
      origin: "release",
      key: `${transactionId}:release`,
      medusaRef: attempt.session_id,
      action: RELEASE,
    })
    if (!paid) {
      await ledger.updateAttempt(transactionId, {
        state: "closed",
        next_check_at: null,
        note: "Still waiting for approval when no session owned it any more; reversed so it cannot be approved",
      })
      return
    }
    await ledger.updateAttempt(transactionId, {
      state: "released",
      released_at: new Date(),
      next_check_at: null,
      note: "Paid after its session was replaced or deleted; reversed",
    })
    logger?.error(
      `nexi: ${method} transaction ${transactionId} (cart ${attempt.cart_id ?? "unknown"}) was paid after its payment session was replaced or deleted; reversed it with transaction ${reversalId} so the shopper gets the money back`,
    )
  }

  private pollTimedOut(session: SessionRecord): boolean {
    const created = session.created_at ? new Date(session.created_at).getTime() : Number.NaN
    const limitMs = (this.deps.options.apm?.pollTimeoutSeconds ?? Number.POSITIVE_INFINITY) * 1000
    return Number.isFinite(created) && Date.now() - created > limitMs
  }

  /**
   * Still pending after apm.pollTimeoutSeconds: the payment is reversed so the shopper can no
   * longer approve it, then reported failed. Without a terminalReference (needed for the
   * reversal) it stays pending until the scheme times it out itself.
   */
  private async timeOut(data: ApmSessionData, state: MobileTransaction): Promise<MobileTransaction> {
    const apm = this.deps.options.apm
    if (!apm?.terminalReference) return state
    try {
      await this.reverse(data)
    } catch (error) {
      this.deps.logger?.warn(
        `nexi: could not reverse timed-out ${this.deps.method} transaction ${data.transaction_id}: ${(error as Error).message}`,
      )
      return state
    }
    return {
      ...state,
      status: "error",
      reason: `The payment was not approved in the mobile payment app within ${apm.pollTimeoutSeconds} seconds.`,
    }
  }
}

/** One mobile scheme's transactions of the store entry behind `providerId` (`pp_nexi-apm-psp-b_nexi`). */
export function transactionsFor(container: MedusaContainer, providerId: string, method: ApmMethod): ApmTransactions {
  const ledger = ledgerOf(container)
  const records = paymentRecordsOf(container)
  const logger = loggerOf(container)
  return new ApmTransactions({
    options: requireNexiOptions(container, providerId),
    method,
    ledger: () => ledger,
    records,
    providerKey: providerKeyOf(providerId),
    logger,
  })
}

/** The starts of the mobile scheme behind `providerId`, for the job to find those whose answer was lost. */
export function paymentStartsFor(container: MedusaContainer, providerId: string): PaymentStarts {
  const options = requireNexiOptions(container, providerId)
  const method = apmMethodOfProvider(providerId)
  if (!clientsFor(options, loggerOf(container)).apm || !method) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not ${RECOVER}: ${providerId} is not a configured mobile payment provider.`,
    )
  }
  return transactionsFor(container, providerId, method).starts(RECOVER)
}
