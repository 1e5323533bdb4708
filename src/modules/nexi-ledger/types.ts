/**
 * The ledger as the providers and the use cases see it: a port, so a provider depends on
 * what it needs from the ledger and not on Medusa's module machinery (its unit tests give it
 * an in-memory ledger). NexiLedgerService implements it on the plugin's own tables.
 */

/** The name the module is registered under; the payment module lists it in `dependencies`. */
export const NEXI_LEDGER_MODULE = "nexi_ledger"

export type AttemptState = "open" | "superseded" | "paid" | "released" | "closed"
/**
 * Every kind of gateway write the ledger records, in one list: the model's column takes its
 * values from here, so a new kind is added once (and a migration widens the column's check).
 */
export const WRITE_KINDS = [
  "capture",
  "refund",
  "void",
  "cancel_capture",
  "moto",
  "apm_refund",
  "apm_reversal",
  "contract_deactivation",
  "mit_charge",
  "link_creation",
  "link_cancellation",
  "apm_payment",
  "build_finalize",
  "card_verification",
] as const
export type WriteKind = (typeof WRITE_KINDS)[number]

/**
 * A write that moves no money: ending a deleted card's contract at the gateway. Its
 * `gateway_ref` is the contract id, so no order's writes ever include it; the job retries it
 * apart from the payments (writesToRetry), never through an order's sync.
 */
export const DEACTIVATION_KIND = "contract_deactivation" satisfies WriteKind

/**
 * Writes about a payment link (docs/admin.md): they move no money themselves; the payment a
 * shopper makes on the link is read from the gateway order like any other.
 */
const LINK_KINDS: readonly WriteKind[] = ["link_creation", "link_cancellation"]
/** The longest a write the job sends again waits between two tries (writesToRetry): a link stays payable meanwhile. */
export const RETRY_WAIT_MAX_MS = 30 * 60 * 1000

/** A link's cancel: the job sends again one whose outcome is unknown (writesToRetry). */
export const LINK_CANCELLATION_KIND = "link_cancellation" satisfies WriteKind

/**
 * The start of a mobile payment: the service's transaction is the answer, so the write's
 * `gateway_ref` is Medusa's session, and one whose answer was lost is found again by sending
 * its recorded request again (`resend`) under its key; the job does so apart from the payments
 * (writesToRetry), then watches the transaction it learns, which no session owns.
 */
export const PAYMENT_START_KIND = "apm_payment" satisfies WriteKind

/**
 * A staff card verification (POST /orders/card_verification): it moves no money and belongs to
 * no Medusa order; recorded so that every write to the gateway goes through the one sender.
 */
export const CARD_VERIFICATION_KIND: WriteKind = "card_verification"

/**
 * The kinds that move money, which the job settles through their order or transaction. The
 * payment of an XPay Build session (`build_finalize`, POST /build/finalize_payment) is one: what
 * it paid is read from its gateway order like any hosted payment, and a finalize cut off (the
 * store killed mid-call) is settled by the order's sync from the Build session's state, as the
 * shopper's next finalize would, which a completed cart no longer sends.
 */
export const MONEY_KINDS: readonly WriteKind[] = WRITE_KINDS.filter(
  (kind) =>
    kind !== DEACTIVATION_KIND &&
    kind !== PAYMENT_START_KIND &&
    kind !== CARD_VERIFICATION_KIND &&
    !LINK_KINDS.includes(kind),
)
export type WriteOrigin = "medusa" | "staff" | "release"
export type WriteOutcome = "requested" | "executed" | "refused" | "unknown"
export type FollowState = "none" | "following" | "done" | "rejected"

export interface PaymentAttempt {
  id: string
  provider_identifier: string
  gateway_ref: string
  session_id: string | null
  cart_id: string | null
  amount_minor: string
  currency: string
  security_token_hash: string | null
  state: AttemptState
  next_check_at: Date | null
  checks: number
  note: string | null
  released_at: Date | null
  created_at: Date
}

export type NewAttempt = Pick<PaymentAttempt, "provider_identifier" | "gateway_ref" | "amount_minor" | "currency"> &
  Partial<Pick<PaymentAttempt, "session_id" | "cart_id" | "security_token_hash" | "next_check_at" | "state">>

export type AttemptPatch = Partial<
  Pick<PaymentAttempt, "state" | "next_check_at" | "checks" | "note" | "released_at" | "security_token_hash">
>

/** A recorded request: the provider that sent it (as attempts record it) and its body, as the JSON text sent. */
export type WriteResend = {
  provider_identifier: string
  /**
   * The request as first sent; null once the write's outcome is known. It holds the shopper's
   * details (the consumer id, a name), so it is kept no longer than a lost answer needs it.
   */
  body: string | null
}

export interface MoneyWrite {
  id: string
  kind: WriteKind
  origin: WriteOrigin
  idempotency_key: string
  gateway_ref: string
  target_ref: string | null
  amount_minor: string
  currency: string
  medusa_ref: string | null
  outcome: WriteOutcome
  gateway_operation_id: string | null
  follow_state: FollowState
  claimed_by: string | null
  message: string | null
  /** What a write only its own request can find again is sent again with (PAYMENT_START_KIND). */
  resend: WriteResend | null
  created_at: Date
  updated_at: Date
}

/** The kinds of write whose money Medusa must show, so an executed one needs a Medusa record claiming it. */
export const CLAIMED_KINDS: readonly WriteKind[] = ["capture", "void", "refund"]

/**
 * Money the gateway moved for a Medusa record: executed, not a release (which answers to no
 * record), and not a mobile refund the scheme rejected (which moved nothing).
 */
export function isStanding(write: MoneyWrite): boolean {
  return write.outcome === "executed" && write.origin !== "release" && write.follow_state !== "rejected"
}

/**
 * Standing and claimed by no Medusa record: its own record was rolled back (the provider
 * threw) and no later one has taken it over yet. A write whose record survived is claimed for
 * it when the ledger's writes are settled.
 */
export function isUnclaimed(write: MoneyWrite): boolean {
  return isStanding(write) && !write.claimed_by
}

/** An unclaimed write of a kind whose money Medusa must show (CLAIMED_KINDS). */
export function isOrphaned(write: MoneyWrite): boolean {
  return isUnclaimed(write) && CLAIMED_KINDS.includes(write.kind)
}

export type NewWrite = Pick<MoneyWrite, "kind" | "idempotency_key" | "gateway_ref" | "amount_minor" | "currency"> &
  Partial<Pick<MoneyWrite, "origin" | "target_ref" | "medusa_ref" | "resend">>

export type WritePatch = Partial<
  Pick<MoneyWrite, "outcome" | "gateway_operation_id" | "follow_state" | "message" | "claimed_by" | "resend">
>

/**
 * Whether `patch` would set an executed write back, which the ledger never does: a write the
 * gateway takes no key for (a cancel) can be sent by two callers at once, and the loser's
 * refusal (or lost answer) can be recorded after the winner's success.
 */
export function undoesExecuted(patch: WritePatch): boolean {
  return patch.outcome !== undefined && patch.outcome !== "executed"
}

export interface PaymentLedger {
  /** Records a newly opened gateway order or transaction (again for the same ref: unchanged). */
  openAttempt(attempt: NewAttempt): Promise<PaymentAttempt>
  findAttempt(gatewayRef: string): Promise<PaymentAttempt | undefined>
  updateAttempt(gatewayRef: string, patch: AttemptPatch): Promise<void>
  /** Every attempt of the session still open, but `keepRef`, becomes superseded and is watched again now. */
  supersedeAttempts(sessionId: string, keepRef: string | undefined, note: string): Promise<void>
  /** The session's attempts, whatever their state: what a deleted session had opened. */
  attemptsOfSession(sessionId: string): Promise<PaymentAttempt[]>
  /** Attempts the reconciliation job should read now: the least read first, then the longest due. */
  dueAttempts(now: Date, limit: number): Promise<PaymentAttempt[]>
  /** Paid attempts due for another read (attempt-watch.ts), the longest due first. */
  paidAttemptsDue(now: Date, limit: number): Promise<PaymentAttempt[]>
  /** Attempts the plugin released, newest first; of the given carts only, when given. */
  releasedAttempts(filter: { cartIds?: string[]; limit: number }): Promise<PaymentAttempt[]>

  /** Records a write before it is sent; the same key again returns the first record unchanged. */
  requestWrite(write: NewWrite): Promise<MoneyWrite>
  /** Applies `patch` and returns the write; an executed write is returned unchanged by a patch that would set it back (undoesExecuted). */
  updateWrite(idempotencyKey: string, patch: WritePatch): Promise<MoneyWrite>
  writesOf(gatewayRef: string): Promise<MoneyWrite[]>
  /** Writes of one kind made for a Medusa record (a payment link's creation, for its Medusa order), oldest first. */
  writesOfMedusaRef(medusaRef: string, kind: WriteKind): Promise<MoneyWrite[]>
  /**
   * Money writes the job must look at (MONEY_KINDS): outcome not known yet or a transaction still followed, oldest
   * first, then orphaned ones (isOrphaned), least recently looked at first.
   */
  writesToSettle(olderThan: Date, limit: number): Promise<MoneyWrite[]>
  /**
   * Writes of `kind` the job sends apart from the payments (a contract's deactivation, a payment
   * link's cancel, a mobile payment's start) whose outcome is unknown, or requested before
   * `olderThan` (cut off mid-call); least recently tried first, so each gets its turn. A refused
   * one is left (nothing was made, or what was made is the sync's) unless `refused` asks for it:
   * a deactivation the gateway refused is tried again. Each write waits, since it was last tried,
   * as long as it had waited before then since it was recorded (at most RETRY_WAIT_MAX_MS): a
   * gateway that keeps failing it is asked ever more rarely, the waits doubling.
   */
  writesToRetry(
    kind: WriteKind,
    olderThan: Date,
    limit: number,
    options?: { refused?: boolean; now?: Date },
  ): Promise<MoneyWrite[]>
  /**
   * Mobile payment starts made (settled between `since` and `olderThan`) whose transaction has no
   * attempt: the ledger failed, or the process stopped, between the answer and the attempt's
   * record, so nothing watches a payment the shopper can approve. Oldest first.
   */
  startsUnwatched(since: Date, olderThan: Date, limit: number): Promise<MoneyWrite[]>
  /**
   * Hands an executed write over to a Medusa record, taking it from `heldBy` (none: a free
   * write); false when another one took it first.
   */
  claimWrite(writeId: string, claimant: string, heldBy?: string | null): Promise<boolean>
}

export type SavedCardState = "pending" | "active" | "failed" | "unsupported" | "deleted"
export type SavedCardPurpose = "checkout" | "verify"
/** CIT: only the cardholder pays with it; MIT_UNSCHEDULED: the customer consented to the shop charging it. */
export const SAVED_CARD_CONTRACT_TYPES = ["CIT", "MIT_UNSCHEDULED"] as const
export type SavedCardContractType = (typeof SAVED_CARD_CONTRACT_TYPES)[number]

/** A card-on-file contract at the card gateway (models/saved-card.ts). */
export interface SavedCard {
  id: string
  provider_identifier: string
  customer_ref: string
  customer_id: string | null
  contract_id: string
  gateway_ref: string
  purpose: SavedCardPurpose
  contract_type: SavedCardContractType
  security_token_hash: string | null
  state: SavedCardState
  circuit: string | null
  masked_pan: string | null
  expiry: string | null
  activated_at: Date | null
  removed_at: Date | null
  created_at: Date
}

export type NewSavedCard = Pick<
  SavedCard,
  "provider_identifier" | "customer_ref" | "contract_id" | "gateway_ref" | "purpose"
> &
  Partial<Pick<SavedCard, "customer_id" | "contract_type">>

export type SavedCardPatch = Partial<
  Pick<SavedCard, "state" | "circuit" | "masked_pan" | "expiry" | "activated_at" | "removed_at" | "security_token_hash">
>

export interface SavedCardFilter {
  customerRef?: string
  customerId?: string
  states: SavedCardState[]
  limit: number
}

/** The saved cards, in the same module as the ledger: one `dependencies` line reaches both. */
export interface SavedCardBook {
  /** Recorded before the hosted order that creates the contract is sent. */
  createSavedCard(card: NewSavedCard): Promise<SavedCard>
  findSavedCard(id: string): Promise<SavedCard | undefined>
  findSavedCardOfOrder(gatewayRef: string): Promise<SavedCard | undefined>
  updateSavedCard(id: string, patch: SavedCardPatch): Promise<void>
  /** Newest first. */
  savedCards(filter: SavedCardFilter): Promise<SavedCard[]>
}
