/**
 * All state of the APM family: transactions, remembered idempotent answers and the id
 * counters. Everything the server persists goes through snapshot() and restore().
 */
import { z } from "zod"
import { type TransactionRecord, TransactionRecordSchema } from "./transaction-record"

/** Realistic-looking int64 ids, far from 1 so that a test confusing ids with counts fails. */
const FIRST_TRANSACTION_ID = 7_000_000_001
const FIRST_RECEIPT_ID = 500_001

const IdempotentAnswerSchema = z.object({
  owner: z.string(),
  key: z.string(),
  /** Hash of the type and body of the first request, to catch a key reused for another request. */
  fingerprint: z.string(),
  status: z.number().int(),
  body: z.unknown(),
})
type IdempotentAnswer = z.infer<typeof IdempotentAnswerSchema>

const StoreSnapshotSchema = z.object({
  version: z.literal(1),
  nextTransactionId: z.number().int().positive(),
  nextReceiptId: z.number().int().positive(),
  transactions: z.array(TransactionRecordSchema),
  idempotency: z.array(IdempotentAnswerSchema),
})
export type StoreSnapshot = z.infer<typeof StoreSnapshotSchema>

export class InvalidSnapshotError extends Error {
  constructor(detail: string) {
    super(`APM simulator state is not valid: ${detail}`)
    this.name = "InvalidSnapshotError"
  }
}

export class TransactionStore {
  private nextTransactionId = FIRST_TRANSACTION_ID
  private nextReceiptId = FIRST_RECEIPT_ID
  private readonly transactions = new Map<number, TransactionRecord>()
  private readonly idempotency = new Map<string, IdempotentAnswer>()

  issueTransactionId(): number {
    return this.nextTransactionId++
  }

  issueReceiptId(): number {
    return this.nextReceiptId++
  }

  add(record: TransactionRecord): void {
    this.transactions.set(record.transactionId, record)
  }

  get(transactionId: number): TransactionRecord | undefined {
    return this.transactions.get(transactionId)
  }

  /** Refunds and reversals whose originalReference names this transaction. */
  linkedTo(transactionId: number): TransactionRecord[] {
    const reference = String(transactionId)
    return [...this.transactions.values()].filter((record) => record.originalReference === reference)
  }

  idempotentAnswer(owner: string, key: string): IdempotentAnswer | undefined {
    return this.idempotency.get(idempotencyScope(owner, key))
  }

  rememberAnswer(answer: IdempotentAnswer): void {
    this.idempotency.set(idempotencyScope(answer.owner, answer.key), answer)
  }

  snapshot(): StoreSnapshot {
    return structuredClone({
      version: 1 as const,
      nextTransactionId: this.nextTransactionId,
      nextReceiptId: this.nextReceiptId,
      transactions: [...this.transactions.values()],
      idempotency: [...this.idempotency.values()],
    })
  }

  /** Replaces all state. `undefined` or `null` (a state file written before any APM call) means empty. */
  restore(snapshot: unknown): void {
    if (snapshot === undefined || snapshot === null) {
      this.reset()
      return
    }
    const parsed = StoreSnapshotSchema.safeParse(snapshot)
    if (!parsed.success) {
      throw new InvalidSnapshotError(
        parsed.error.issues.map((issue) => `${issue.path.join(".") || "snapshot"}: ${issue.message}`).join("; "),
      )
    }
    this.reset()
    const restored = structuredClone(parsed.data)
    this.nextTransactionId = restored.nextTransactionId
    this.nextReceiptId = restored.nextReceiptId
    for (const record of restored.transactions) this.add(record)
    for (const answer of restored.idempotency) this.rememberAnswer(answer)
  }

  reset(): void {
    this.nextTransactionId = FIRST_TRANSACTION_ID
    this.nextReceiptId = FIRST_RECEIPT_ID
    this.transactions.clear()
    this.idempotency.clear()
  }
}

/** Keys are scoped per merchant credentials: two merchants may well pick the same key. */
function idempotencyScope(owner: string, key: string): string {
  return JSON.stringify([owner, key])
}
