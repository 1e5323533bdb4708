/**
 * The PaymentLedger port held in memory, for the providers outside a Medusa app: their unit
 * tests and the benchmark's overhead part (a boundary we own: the integration suites run the
 * real module on PostgreSQL). A test fake, so it lives here and never ships. It keeps the same
 * rules as the module: one write per idempotency key, one attempt per gateway ref, claims that
 * only one caller wins.
 */
import { randomUUID } from "node:crypto"
import type {
  AttemptPatch,
  MoneyWrite,
  NewAttempt,
  NewSavedCard,
  NewWrite,
  PaymentAttempt,
  PaymentLedger,
  SavedCard,
  SavedCardBook,
  SavedCardFilter,
  SavedCardPatch,
  WriteKind,
  WritePatch,
} from "../src/modules/nexi-ledger/types"
import {
  isOrphaned,
  MONEY_KINDS,
  PAYMENT_START_KIND,
  RETRY_WAIT_MAX_MS,
  undoesExecuted,
} from "../src/modules/nexi-ledger/types"

export class InMemoryLedger implements PaymentLedger, SavedCardBook {
  readonly attempts: PaymentAttempt[] = []
  readonly writes: MoneyWrite[] = []
  readonly cards: SavedCard[] = []
  // Indexed as the tables are, so thousands of payments cost what a database lookup does, not a scan.
  private readonly attemptByRef = new Map<string, PaymentAttempt>()
  private readonly writeByKey = new Map<string, MoneyWrite>()
  private readonly writesByRef = new Map<string, MoneyWrite[]>()
  /** Milliseconds of the last write time handed out (writeTime). */
  private lastWriteTime = 0

  async openAttempt(attempt: NewAttempt): Promise<PaymentAttempt> {
    const existing = await this.findAttempt(attempt.gateway_ref)
    if (existing) return existing
    const row: PaymentAttempt = {
      id: `nexatt_${randomUUID()}`,
      session_id: null,
      cart_id: null,
      security_token_hash: null,
      state: "open",
      next_check_at: null,
      checks: 0,
      note: null,
      released_at: null,
      created_at: new Date(),
      ...attempt,
    }
    this.attempts.push(row)
    this.attemptByRef.set(row.gateway_ref, row)
    return { ...row }
  }

  async findAttempt(gatewayRef: string): Promise<PaymentAttempt | undefined> {
    const row = this.attemptByRef.get(gatewayRef)
    return row && { ...row }
  }

  async updateAttempt(gatewayRef: string, patch: AttemptPatch): Promise<void> {
    const row = this.attemptByRef.get(gatewayRef)
    if (row) Object.assign(row, patch)
  }

  async attemptsOfSession(sessionId: string): Promise<PaymentAttempt[]> {
    return this.attempts.filter((row) => row.session_id === sessionId).map((row) => ({ ...row }))
  }

  async supersedeAttempts(sessionId: string, keepRef: string | undefined, note: string): Promise<void> {
    for (const row of this.attempts) {
      if (row.session_id === sessionId && row.state === "open" && row.gateway_ref !== keepRef) {
        Object.assign(row, { state: "superseded", note, next_check_at: new Date() })
      }
    }
  }

  async dueAttempts(now: Date, limit: number): Promise<PaymentAttempt[]> {
    return this.attempts
      .filter(
        (row) => (row.state === "open" || row.state === "superseded") && row.next_check_at && row.next_check_at <= now,
      )
      .sort((a, b) => a.checks - b.checks || (a.next_check_at?.getTime() ?? 0) - (b.next_check_at?.getTime() ?? 0))
      .slice(0, limit)
      .map((row) => ({ ...row }))
  }

  async paidAttemptsDue(now: Date, limit: number): Promise<PaymentAttempt[]> {
    return this.attempts
      .filter((row) => row.state === "paid" && row.next_check_at && row.next_check_at <= now)
      .sort((a, b) => (a.next_check_at?.getTime() ?? 0) - (b.next_check_at?.getTime() ?? 0))
      .slice(0, limit)
      .map((row) => ({ ...row }))
  }

  async releasedAttempts({ cartIds, limit }: { cartIds?: string[]; limit: number }): Promise<PaymentAttempt[]> {
    return this.attempts
      .filter(
        (row) => row.state === "released" && (!cartIds || (row.cart_id !== null && cartIds.includes(row.cart_id))),
      )
      .slice(0, limit)
      .map((row) => ({ ...row }))
  }

  async requestWrite(write: NewWrite): Promise<MoneyWrite> {
    const existing = this.writeByKey.get(write.idempotency_key)
    if (existing) return { ...existing }
    const now = this.writeTime()
    const row: MoneyWrite = {
      id: `nexwri_${randomUUID()}`,
      origin: "medusa",
      target_ref: null,
      medusa_ref: null,
      outcome: "requested",
      gateway_operation_id: null,
      follow_state: "none",
      claimed_by: null,
      message: null,
      resend: null,
      created_at: now,
      updated_at: now,
      ...write,
    }
    this.writes.push(row)
    this.writeByKey.set(row.idempotency_key, row)
    this.writesByRef.set(row.gateway_ref, [...(this.writesByRef.get(row.gateway_ref) ?? []), row])
    return { ...row }
  }

  async updateWrite(idempotencyKey: string, patch: WritePatch): Promise<MoneyWrite> {
    const row = this.writeByKey.get(idempotencyKey)
    if (!row) throw new Error(`nexi ledger: no write with idempotency key ${idempotencyKey}`)
    if (row.outcome === "executed" && undoesExecuted(patch)) return { ...row }
    Object.assign(row, patch, { updated_at: this.writeTime() })
    return { ...row }
  }

  /**
   * A write's time, strictly after the previous write's: the job orders orphans by when they
   * were last touched, and a test does in one millisecond what a store does over minutes.
   */
  private writeTime(): Date {
    this.lastWriteTime = Math.max(Date.now(), this.lastWriteTime + 1)
    return new Date(this.lastWriteTime)
  }

  async writesOf(gatewayRef: string): Promise<MoneyWrite[]> {
    return (this.writesByRef.get(gatewayRef) ?? []).map((row) => ({ ...row }))
  }

  async writesOfMedusaRef(medusaRef: string, kind: WriteKind): Promise<MoneyWrite[]> {
    return this.writes.filter((row) => row.medusa_ref === medusaRef && row.kind === kind).map((row) => ({ ...row }))
  }

  async writesToSettle(olderThan: Date, limit: number): Promise<MoneyWrite[]> {
    const unsettled = this.writes.filter(
      (row) =>
        MONEY_KINDS.includes(row.kind) &&
        row.updated_at <= olderThan &&
        (row.outcome === "requested" || row.outcome === "unknown" || row.follow_state === "following"),
    )
    const orphaned = this.writes.filter(isOrphaned).sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime())
    return [...unsettled, ...orphaned].slice(0, limit).map((row) => ({ ...row }))
  }

  async writesToRetry(
    kind: WriteKind,
    olderThan: Date,
    limit: number,
    { refused = false, now = new Date() }: { refused?: boolean; now?: Date } = {},
  ): Promise<MoneyWrite[]> {
    const waited = (row: MoneyWrite) => row.updated_at.getTime() - row.created_at.getTime()
    return this.writes
      .filter(
        (row) =>
          row.kind === kind &&
          (row.outcome === "unknown" ||
            (refused && row.outcome === "refused") ||
            (row.outcome === "requested" && row.updated_at <= olderThan)) &&
          now.getTime() - row.updated_at.getTime() >= Math.min(waited(row), RETRY_WAIT_MAX_MS),
      )
      .sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime())
      .slice(0, limit)
      .map((row) => ({ ...row }))
  }

  async startsUnwatched(since: Date, olderThan: Date, limit: number): Promise<MoneyWrite[]> {
    return this.writes
      .filter(
        (row) =>
          row.kind === PAYMENT_START_KIND &&
          row.outcome === "executed" &&
          row.updated_at >= since &&
          row.updated_at <= olderThan &&
          !this.attemptByRef.has(row.gateway_operation_id ?? ""),
      )
      .sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime())
      .slice(0, limit)
      .map((row) => ({ ...row }))
  }

  async claimWrite(writeId: string, claimant: string, heldBy: string | null = null): Promise<boolean> {
    const row = this.writes.find((write) => write.id === writeId)
    if (!row || row.claimed_by !== heldBy) return false
    row.claimed_by = claimant
    return true
  }

  async createSavedCard(card: NewSavedCard): Promise<SavedCard> {
    if (this.cards.some((row) => row.contract_id === card.contract_id || row.gateway_ref === card.gateway_ref)) {
      throw new Error(`nexi ledger: a saved card with contract ${card.contract_id} or order ${card.gateway_ref} exists`)
    }
    const row: SavedCard = {
      id: `nexcard_${randomUUID()}`,
      customer_id: null,
      security_token_hash: null,
      state: "pending",
      contract_type: "CIT",
      circuit: null,
      masked_pan: null,
      expiry: null,
      activated_at: null,
      removed_at: null,
      created_at: new Date(),
      ...card,
    }
    this.cards.push(row)
    return { ...row }
  }

  async findSavedCard(id: string): Promise<SavedCard | undefined> {
    const row = this.cards.find((card) => card.id === id)
    return row && { ...row }
  }

  async findSavedCardOfOrder(gatewayRef: string): Promise<SavedCard | undefined> {
    const row = this.cards.find((card) => card.gateway_ref === gatewayRef)
    return row && { ...row }
  }

  async updateSavedCard(id: string, patch: SavedCardPatch): Promise<void> {
    const row = this.cards.find((card) => card.id === id)
    if (row) Object.assign(row, patch)
  }

  async savedCards({ customerRef, customerId, states, limit }: SavedCardFilter): Promise<SavedCard[]> {
    return this.cards
      .filter((row) => states.includes(row.state))
      .filter((row) => customerRef === undefined || row.customer_ref === customerRef)
      .filter((row) => customerId === undefined || row.customer_id === customerId)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
      .slice(0, limit)
      .map((row) => ({ ...row }))
  }
}
