/**
 * The transaction state machine. docs/contract/apm.md names the states and events but not which
 * event moves which state where, so this table is the simulator's answer (see
 * docs/simulator-apm.md). Every change is recorded as a transition, and the account state
 * follows the state: funds change owner (COMMIT) only when a transaction is FINALIZED.
 */
import type { AccountState, TransactionState, TransitionEvent } from "../../apm/schemas"
import { minorMoneyText } from "../../money/amount"
import type { TransactionStore } from "./store"
import type { NewTransaction, TransactionRecord } from "./transaction-record"

interface Move {
  from: readonly TransactionState[]
  to: TransactionState
}

const MOVES = {
  /** The service hands the payment request on to the consumer's app. */
  RESEND: { from: ["INITIALIZED"], to: "PENDING" },
  AUTHORIZE: { from: ["PENDING"], to: "AUTHORIZED" },
  /** Payments finalize once authorized; refunds and reversals need no consumer and finalize at once. */
  FINALIZE: { from: ["AUTHORIZED", "INITIALIZED"], to: "FINALIZED" },
  /** From INITIALIZED when the scheme refuses the consumer outright, from PENDING when the consumer declines. */
  REJECT: { from: ["INITIALIZED", "PENDING"], to: "REJECTED" },
  TIMEOUT: { from: ["PENDING"], to: "TIMEDOUT" },
  /** A reversal cancels a payment still waiting for the consumer or one already finalized. */
  CANCEL: { from: ["PENDING", "FINALIZED"], to: "CANCELLED" },
} as const satisfies Partial<Record<TransitionEvent, Move>>

export type MoveEvent = keyof typeof MOVES

const ACCOUNT_STATE_AFTER: Partial<Record<TransactionState, AccountState>> = {
  FINALIZED: "COMMIT",
  REJECTED: "ROLLBACK",
  TIMEDOUT: "ROLLBACK",
  CANCELLED: "ROLLBACK",
}

export class Lifecycle {
  constructor(
    private readonly store: TransactionStore,
    private readonly now: () => Date,
  ) {}

  /** Stores a new transaction in INITIALIZED, with its CREATE transition. */
  create(fields: NewTransaction): TransactionRecord {
    const at = this.timeStamp()
    const record: TransactionRecord = {
      ...fields,
      transactionId: this.store.issueTransactionId(),
      timeStamp: at,
      state: "INITIALIZED",
      transitions: [{ timeStamp: at, to: "INITIALIZED", event: "CREATE" }],
      additionalInfo: "Transaction initialized",
      statusRead: false,
    }
    this.store.add(record)
    return record
  }

  canAdvance(record: TransactionRecord, event: MoveEvent): boolean {
    const from: readonly TransactionState[] = MOVES[event].from
    return from.includes(record.state)
  }

  /** `additionalInfo` is what the scheme says about this change (naa2Ecr.additionalInfo). */
  advance(record: TransactionRecord, event: MoveEvent, additionalInfo: string): void {
    // Callers check canAdvance first and answer the merchant; reaching this is a simulator bug.
    if (!this.canAdvance(record, event)) {
      throw new Error(`${event} cannot move transaction ${record.transactionId} out of ${record.state}`)
    }
    const at = this.timeStamp()
    const to = MOVES[event].to
    record.transitions.push({ timeStamp: at, from: record.state, to, event })
    record.state = to
    record.accountState = ACCOUNT_STATE_AFTER[to] ?? record.accountState
    record.additionalInfo = additionalInfo
    if (to === "FINALIZED") record.receipt = this.receipt(record, at)
  }

  private receipt(record: TransactionRecord, at: string): NonNullable<TransactionRecord["receipt"]> {
    const { totalAmount, vatAmount, currencyCode } = record.amount
    return {
      receiptId: this.store.issueReceiptId(),
      timeStamp: at,
      receiptClass: record.type.toUpperCase(),
      receiptData: [
        `Merchant ${record.merchant.merchantId}`,
        `${record.method} transaction ${record.transactionId}`,
        `Total ${minorMoneyText(totalAmount, currencyCode)}`,
        `of which VAT ${minorMoneyText(vatAmount, currencyCode)}`,
      ],
    }
  }

  private timeStamp(): string {
    return this.now().toISOString()
  }
}
