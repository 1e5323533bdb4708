/**
 * The ledger's tables behind the PaymentLedger port. The generated CRUD methods of
 * MedusaService do most of the work. Four writes are single statements: claiming a write, a
 * compare-and-set so two requests can never both take the same executed refund; settling a
 * write as refused or unknown, which never sets an executed one back; and opening
 * and updating an attempt, which every checkout does, and which the generated methods would
 * wrap in a transaction of their own or precede with a read.
 */
import type { Context } from "@medusajs/framework/types"
import { generateEntityId, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import { NexiMoneyWrite } from "./models/money-write"
import { ATTEMPT_ID_PREFIX, NexiPaymentAttempt } from "./models/payment-attempt"
import { NexiSavedCard } from "./models/saved-card"
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
} from "./types"
import { CLAIMED_KINDS, MONEY_KINDS, PAYMENT_START_KIND, RETRY_WAIT_MAX_MS, undoesExecuted } from "./types"

interface Filtered {
  where(filter: Record<string, unknown>): Filtered
  update(values: Record<string, unknown>): Promise<number>
}

type Knex = (table: string) => {
  where(filter: Record<string, unknown>): Filtered
  whereNot(filter: Record<string, unknown>): Filtered
  insert(values: Record<string, unknown>): { returning(columns: "*"): Promise<Record<string, unknown>[]> }
}

type RawKnex = { raw(sql: string, bindings: unknown[]): Promise<{ rows: unknown[] }> }

/** The query builder of the manager Medusa injected (the request's transaction, if any). */
function knexOf(context: Context): Knex {
  return (context.manager as unknown as { getKnex(): Knex }).getKnex()
}

export class NexiLedgerService
  extends MedusaService({ NexiPaymentAttempt, NexiMoneyWrite, NexiSavedCard })
  implements PaymentLedger, SavedCardBook
{
  /** One INSERT statement; the table's defaults fill in the state and the count of reads. */
  @InjectManager()
  async openAttempt(attempt: NewAttempt, @MedusaContext() context: Context = {}): Promise<PaymentAttempt> {
    try {
      // A new order id nearly always: inserting first saves a read on every checkout.
      const [row] = await knexOf(context)("nexi_payment_attempt")
        .insert({ id: generateEntityId(undefined, ATTEMPT_ID_PREFIX), ...attempt })
        .returning("*")
      return row as unknown as PaymentAttempt
    } catch (error) {
      const existing = await this.findAttempt(attempt.gateway_ref)
      if (existing) return existing
      throw error
    }
  }

  async findAttempt(gatewayRef: string): Promise<PaymentAttempt | undefined> {
    const [attempt] = await this.listNexiPaymentAttempts({ gateway_ref: gatewayRef }, { take: 1 })
    return attempt as unknown as PaymentAttempt | undefined
  }

  /** One UPDATE statement: the generated method reads the rows first, a cost every checkout would pay twice. */
  @InjectManager()
  async updateAttempt(gatewayRef: string, patch: AttemptPatch, @MedusaContext() context: Context = {}): Promise<void> {
    await knexOf(context)("nexi_payment_attempt")
      .where({ gateway_ref: gatewayRef, deleted_at: null })
      .update({ ...patch, updated_at: new Date() })
  }

  async supersedeAttempts(sessionId: string, keepRef: string | undefined, note: string): Promise<void> {
    const open = await this.listNexiPaymentAttempts({ session_id: sessionId, state: "open" })
    const stale = open.filter((attempt) => attempt.gateway_ref !== keepRef)
    if (!stale.length) return
    await this.updateNexiPaymentAttempts(
      stale.map((attempt) => ({ id: attempt.id, state: "superseded" as const, note, next_check_at: new Date() })),
    )
  }

  async attemptsOfSession(sessionId: string): Promise<PaymentAttempt[]> {
    return (await this.listNexiPaymentAttempts({ session_id: sessionId })) as unknown as PaymentAttempt[]
  }

  async dueAttempts(now: Date, limit: number): Promise<PaymentAttempt[]> {
    const due = await this.listNexiPaymentAttempts(
      { state: ["open", "superseded"], next_check_at: { $lte: now } },
      // Never-read attempts first: a payment read fewer times is likelier to have just been
      // paid, and abandoned carts already read many times must not starve it.
      { order: { checks: "ASC", next_check_at: "ASC" }, take: limit },
    )
    return due as unknown as PaymentAttempt[]
  }

  async paidAttemptsDue(now: Date, limit: number): Promise<PaymentAttempt[]> {
    const due = await this.listNexiPaymentAttempts(
      { state: "paid", next_check_at: { $lte: now } },
      { order: { next_check_at: "ASC" }, take: limit },
    )
    return due as unknown as PaymentAttempt[]
  }

  async releasedAttempts({ cartIds, limit }: { cartIds?: string[]; limit: number }): Promise<PaymentAttempt[]> {
    const filter = cartIds ? { state: "released" as const, cart_id: cartIds } : { state: "released" as const }
    const rows = await this.listNexiPaymentAttempts(filter, { order: { released_at: "DESC" }, take: limit })
    return rows as unknown as PaymentAttempt[]
  }

  async requestWrite(write: NewWrite): Promise<MoneyWrite> {
    const existing = await this.findWrite(write.idempotency_key)
    if (existing) return existing
    try {
      return (await this.createNexiMoneyWrites(write)) as unknown as MoneyWrite
    } catch (error) {
      // Two requests with one key at once: the unique index lets one in; the other reads it.
      const raced = await this.findWrite(write.idempotency_key)
      if (raced) return raced
      throw error
    }
  }

  /**
   * A patch that would undo an executed write is a single conditional UPDATE, so a loser's
   * refusal that reaches the database after the winner's success changes nothing (undoesExecuted).
   */
  @InjectManager()
  async updateWrite(
    idempotencyKey: string,
    patch: WritePatch,
    @MedusaContext() context: Context = {},
  ): Promise<MoneyWrite> {
    if (!undoesExecuted(patch)) {
      const [updated] = await this.updateNexiMoneyWrites({ selector: { idempotency_key: idempotencyKey }, data: patch })
      if (!updated) throw new Error(`nexi ledger: no write with idempotency key ${idempotencyKey}`)
      return updated as unknown as MoneyWrite
    }
    await knexOf(context)("nexi_money_write")
      .whereNot({ outcome: "executed" })
      .where({ idempotency_key: idempotencyKey, deleted_at: null })
      .update({ ...patch, updated_at: new Date() })
    const write = await this.findWrite(idempotencyKey)
    if (!write) throw new Error(`nexi ledger: no write with idempotency key ${idempotencyKey}`)
    return write
  }

  async writesOf(gatewayRef: string): Promise<MoneyWrite[]> {
    const rows = await this.listNexiMoneyWrites({ gateway_ref: gatewayRef }, { order: { created_at: "ASC" } })
    return rows as unknown as MoneyWrite[]
  }

  async writesOfMedusaRef(medusaRef: string, kind: WriteKind): Promise<MoneyWrite[]> {
    const rows = await this.listNexiMoneyWrites({ medusa_ref: medusaRef, kind }, { order: { created_at: "ASC" } })
    return rows as unknown as MoneyWrite[]
  }

  async writesToSettle(olderThan: Date, limit: number): Promise<MoneyWrite[]> {
    const unsettled = await this.listNexiMoneyWrites(
      {
        kind: [...MONEY_KINDS],
        $or: [
          { outcome: ["requested", "unknown"], updated_at: { $lte: olderThan } },
          { follow_state: "following", updated_at: { $lte: olderThan } },
        ],
      },
      { order: { updated_at: "ASC" }, take: limit },
    )
    // Asked apart, after: orphans Medusa cannot record stay orphaned, and must not hide the rest.
    const orphaned = await this.listNexiMoneyWrites(
      { outcome: "executed", claimed_by: null, origin: ["medusa", "staff"], kind: [...CLAIMED_KINDS] },
      { order: { updated_at: "ASC" }, take: limit },
    )
    return [...unsettled, ...orphaned].slice(0, limit) as unknown as MoneyWrite[]
  }

  @InjectManager()
  async writesToRetry(
    kind: WriteKind,
    olderThan: Date,
    limit: number,
    { refused = false, now = new Date() }: { refused?: boolean; now?: Date } = {},
    @MedusaContext() context: Context = {},
  ): Promise<MoneyWrite[]> {
    const outcomes = refused ? ["refused", "unknown"] : ["unknown"]
    const { rows } = await (context.manager as unknown as { getKnex(): RawKnex }).getKnex().raw(
      `select * from nexi_money_write
        where kind = ? and deleted_at is null
          and (outcome in (${outcomes.map(() => "?").join(", ")}) or (outcome = 'requested' and updated_at <= ?))
          and updated_at <= ?::timestamptz - least(updated_at - created_at, make_interval(secs => ?))
        order by updated_at asc limit ?`,
      [kind, ...outcomes, olderThan, now, RETRY_WAIT_MAX_MS / 1000, limit],
    )
    return rows as MoneyWrite[]
  }

  @InjectManager()
  async startsUnwatched(
    since: Date,
    olderThan: Date,
    limit: number,
    @MedusaContext() context: Context = {},
  ): Promise<MoneyWrite[]> {
    // One statement: the executed starts of the window that no attempt names (its transaction id).
    const { rows } = await (context.manager as unknown as { getKnex(): RawKnex }).getKnex().raw(
      `select w.* from nexi_money_write w
        where w.kind = ? and w.outcome = 'executed' and w.deleted_at is null
          and w.updated_at >= ? and w.updated_at <= ?
          and not exists (select 1 from nexi_payment_attempt a
                           where a.gateway_ref = w.gateway_operation_id and a.deleted_at is null)
        order by w.updated_at asc limit ?`,
      [PAYMENT_START_KIND, since, olderThan, limit],
    )
    return rows as MoneyWrite[]
  }

  @InjectManager()
  async claimWrite(
    writeId: string,
    claimant: string,
    heldBy: string | null = null,
    @MedusaContext() context: Context = {},
  ): Promise<boolean> {
    const claimed = await knexOf(context)("nexi_money_write")
      .where({ id: writeId, claimed_by: heldBy })
      .update({ claimed_by: claimant, updated_at: new Date() })
    return claimed === 1
  }

  private async findWrite(idempotencyKey: string): Promise<MoneyWrite | undefined> {
    const [write] = await this.listNexiMoneyWrites({ idempotency_key: idempotencyKey }, { take: 1 })
    return write as unknown as MoneyWrite | undefined
  }

  async createSavedCard(card: NewSavedCard): Promise<SavedCard> {
    return (await this.createNexiSavedCards(card)) as unknown as SavedCard
  }

  async findSavedCard(id: string): Promise<SavedCard | undefined> {
    const [card] = await this.listNexiSavedCards({ id }, { take: 1 })
    return card as unknown as SavedCard | undefined
  }

  async findSavedCardOfOrder(gatewayRef: string): Promise<SavedCard | undefined> {
    const [card] = await this.listNexiSavedCards({ gateway_ref: gatewayRef }, { take: 1 })
    return card as unknown as SavedCard | undefined
  }

  async updateSavedCard(id: string, patch: SavedCardPatch): Promise<void> {
    await this.updateNexiSavedCards({ selector: { id }, data: patch })
  }

  async savedCards({ customerRef, customerId, states, limit }: SavedCardFilter): Promise<SavedCard[]> {
    const filter = {
      state: states,
      ...(customerRef !== undefined ? { customer_ref: customerRef } : {}),
      ...(customerId !== undefined ? { customer_id: customerId } : {}),
    }
    const rows = await this.listNexiSavedCards(filter, { order: { created_at: "DESC" }, take: limit })
    return rows as unknown as SavedCard[]
  }
}
