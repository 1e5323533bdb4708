/**
 * The job's retries of the writes that move no money by themselves, after the payments, each kind
 * within a budget of its own so the payments never wait behind them, and each write asked ever
 * more rarely while the gateway keeps failing it (the ledger's writesToRetry doubles the wait):
 * - deleted saved cards' contract deactivations the gateway has not confirmed (`endContract`, saved-card-methods.ts):
 *   it failed, refused or lost the answer, or the process stopped mid-call;
 * - payment link cancels whose outcome stayed unknown: until the gateway cancels it, the link can
 *   still be paid (a payment that comes is released, its attempt superseded before the cancel was
 *   sent). A cancel the gateway refuses (the link was paid meanwhile) is settled refused and left
 *   to the sync, which releases that payment;
 * - mobile payment starts nothing watches (core/mobile/payment-start.ts): the shopper may approve
 *   such a payment in the app although no session points at it. One whose answer was lost is sent
 *   again under its key; one made whose attempt was never recorded (the ledger failed, or the
 *   process stopped, right after the answer) needs no call. Either way the transaction is watched
 *   from then on like any other no session owns: reversed while it waits, given back if paid.
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { endContract } from "../core/card/contract-end"
import { cancelLinkOnce } from "../core/card/payment-links"
import { paymentStartsFor } from "../core/mobile/apm-transactions"
import { STALE_REQUEST_MS } from "../core/send-once"
import { gatewayClientFor, ledgerOf } from "../core/store-entries"
import { InvalidRequestError } from "../http/errors"
import {
  DEACTIVATION_KIND,
  LINK_CANCELLATION_KIND,
  type MoneyWrite,
  PAYMENT_START_KIND,
  type PaymentLedger,
  type SavedCardBook,
} from "../modules/nexi-ledger/types"

/** Writes of each kind one run sends at most: each is one call (two after a lost answer). */
const SIDE_WRITES_PER_RUN = 10
/** A watch gives up after a day: a mobile start older than that is past any approval. */
const UNWATCHED_WITHIN_MS = 24 * 60 * 60 * 1000

export interface ContractEndsSummary {
  ended: number
  pending: number
}

export interface LinkCancelsSummary {
  cancelled: number
  pending: number
}

export interface PaymentStartsSummary {
  /** Transactions found, now watched. */
  found: number
  /** Never made: refused by the service. */
  refused: number
  pending: number
}

export interface SideRetriesSummary {
  /** Deleted saved cards' contract deactivations sent again. */
  contractEnds?: ContractEndsSummary
  /** Payment link cancels whose outcome was unknown, sent again. */
  linkCancels?: LinkCancelsSummary
  /** Mobile payment starts whose answer was lost, sent again, or made but never watched. */
  paymentStarts?: PaymentStartsSummary
}

/** One run's view of the store; `providerOf` names the store's provider a write's record names. */
interface RetryRun {
  container: MedusaContainer
  ledger: PaymentLedger
  logger: Logger
  providerOf: (recorded: string) => string | undefined
  now: Date
  /** Writes touched since are still another sender's (send-once.ts). */
  olderThan: Date
}

/** Settled with the reason, which also puts the write behind the others for the next run. */
async function putBack(run: RetryRun, write: MoneyWrite, message: string, what: string): Promise<void> {
  await run.ledger.updateWrite(write.idempotency_key, { message })
  run.logger.warn(`nexi: ${what}: ${message}`)
}

async function retryContractEnds(run: RetryRun): Promise<ContractEndsSummary> {
  const { ledger, logger } = run
  const book = ledger as unknown as SavedCardBook
  const summary: ContractEndsSummary = { ended: 0, pending: 0 }
  const writes = await ledger.writesToRetry(DEACTIVATION_KIND, run.olderThan, SIDE_WRITES_PER_RUN, {
    refused: true,
    now: run.now,
  })
  for (const write of writes) {
    const card = write.medusa_ref ? await book.findSavedCard(write.medusa_ref) : undefined
    if (card?.state !== "deleted") {
      // Its hiding failed after the deactivation was recorded, so the customer is still offered
      // the card: its contract must stay. The write says so, and a later delete sends it.
      await ledger.updateWrite(write.idempotency_key, {
        outcome: "refused",
        message: "not sent: the card was not deleted, so it stays usable at the gateway",
      })
      continue
    }
    const providerId = run.providerOf(card.provider_identifier)
    if (!providerId) {
      summary.pending += 1
      const message = `no provider ${card.provider_identifier} is configured to send it`
      await putBack(run, write, message, `cannot end the contract of deleted saved card ${card.id}`)
      continue
    }
    const gateway = gatewayClientFor(run.container, providerId)
    // endContract logs a failure itself, and leaves the write for the next run.
    if (await endContract({ ledger, gateway, logger }, card, write.origin, write.idempotency_key)) summary.ended += 1
    else summary.pending += 1
  }
  return summary
}

async function retryLinkCancels(run: RetryRun): Promise<LinkCancelsSummary> {
  const { ledger } = run
  const summary: LinkCancelsSummary = { cancelled: 0, pending: 0 }
  const writes = await ledger.writesToRetry(LINK_CANCELLATION_KIND, run.olderThan, SIDE_WRITES_PER_RUN, {
    now: run.now,
  })
  for (const write of writes) {
    const attempt = await ledger.findAttempt(write.gateway_ref)
    const providerId = attempt && run.providerOf(attempt.provider_identifier)
    if (!providerId || !write.target_ref) {
      summary.pending += 1
      const message = `no configured provider opened gateway order ${write.gateway_ref}`
      await putBack(run, write, message, `cannot cancel payment link ${write.target_ref}`)
      continue
    }
    const link = {
      link_id: write.target_ref,
      gateway_order_id: write.gateway_ref,
      amount_minor: write.amount_minor,
      currency: write.currency,
    }
    try {
      await cancelLinkOnce({ gateway: gatewayClientFor(run.container, providerId), ledger }, link)
      summary.cancelled += 1
    } catch (error) {
      // Refused: the gateway says the link was paid; the write is settled and its payment is the sync's.
      if (error instanceof InvalidRequestError) continue
      summary.pending += 1
      run.logger.warn(`nexi: could not cancel payment link ${link.link_id} yet: ${(error as Error).message}`)
    }
  }
  return summary
}

async function retryPaymentStarts(run: RetryRun): Promise<PaymentStartsSummary> {
  const { ledger } = run
  const summary: PaymentStartsSummary = { found: 0, refused: 0, pending: 0 }
  const lost = await ledger.writesToRetry(PAYMENT_START_KIND, run.olderThan, SIDE_WRITES_PER_RUN, { now: run.now })
  const since = new Date(run.now.getTime() - UNWATCHED_WITHIN_MS)
  // Each costs the ledger only: its transaction is known.
  const unwatched = await ledger.startsUnwatched(since, run.olderThan, SIDE_WRITES_PER_RUN)
  for (const write of [...lost, ...unwatched]) {
    const recorded = write.resend?.provider_identifier ?? "(none recorded)"
    const providerId = run.providerOf(recorded)
    try {
      if (!providerId) throw new Error(`no provider ${recorded} is configured to send it`)
      if (await paymentStartsFor(run.container, providerId).recover(write)) summary.found += 1
      else summary.refused += 1
    } catch (error) {
      summary.pending += 1
      const what = `could not yet find the mobile payment started for session ${write.medusa_ref}`
      await putBack(run, write, (error as Error).message, what)
    }
  }
  return summary
}

const SIDE_RETRIES = [
  ["contractEnds", retryContractEnds, "saved cards' contract deactivations"],
  ["linkCancels", retryLinkCancels, "payment link cancels"],
  ["paymentStarts", retryPaymentStarts, "mobile payment starts"],
] as const

/** Each kind on its own: one that fails is logged and tried next run, and never stops the others. */
export async function retrySideWrites(
  container: MedusaContainer,
  providerOf: RetryRun["providerOf"],
  now: Date,
): Promise<SideRetriesSummary> {
  const logger = container.resolve<Logger>("logger")
  const run = {
    container,
    ledger: ledgerOf(container),
    logger,
    providerOf,
    now,
    olderThan: new Date(now.getTime() - STALE_REQUEST_MS),
  }
  const summary: SideRetriesSummary = {}
  for (const [name, retry, what] of SIDE_RETRIES) {
    try {
      const retried = await retry(run)
      if (Object.values(retried).some(Boolean)) Object.assign(summary, { [name]: retried })
    } catch (error) {
      logger.warn(`nexi: could not retry ${what}: ${(error as Error).message}`)
    }
  }
  return summary
}
