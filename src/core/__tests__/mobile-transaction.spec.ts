import {
  ACCOUNT_STATES,
  type AccountState,
  type ExtendedEnvelope,
  TRANSACTION_STATES,
  type TransactionState,
} from "../../apm/schemas"
import { readMobileTransaction } from "../mobile/mobile-transaction"
import type { PaymentStatus } from "../session-data"

function statusAnswer(
  state: TransactionState | undefined,
  accountState?: AccountState,
  additionalInfo?: string,
): ExtendedEnvelope {
  return { valid: true, state, accountState, ...(additionalInfo ? { naa2Ecr: { additionalInfo } } : {}) }
}

/** What every state means with no account state, with COMMIT, and with ROLLBACK. */
const EXPECTED: Record<TransactionState, Record<"none" | AccountState, PaymentStatus>> = {
  INITIALIZED: { none: "pending", COMMIT: "pending", ROLLBACK: "pending" },
  PENDING: { none: "pending", COMMIT: "pending", ROLLBACK: "pending" },
  AUTHORIZED: { none: "authorized", COMMIT: "authorized", ROLLBACK: "canceled" },
  RESERVED: { none: "authorized", COMMIT: "authorized", ROLLBACK: "canceled" },
  FINALIZED: { none: "captured", COMMIT: "captured", ROLLBACK: "canceled" },
  REPORTED: { none: "captured", COMMIT: "captured", ROLLBACK: "canceled" },
  REJECTED: { none: "error", COMMIT: "error", ROLLBACK: "error" },
  FAILED: { none: "error", COMMIT: "error", ROLLBACK: "error" },
  TIMEDOUT: { none: "error", COMMIT: "error", ROLLBACK: "error" },
  STALE: { none: "error", COMMIT: "error", ROLLBACK: "error" },
  CANCELLED: { none: "canceled", COMMIT: "canceled", ROLLBACK: "canceled" },
}

describe("readMobileTransaction", () => {
  it("names every state of the contract", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...TRANSACTION_STATES].sort())
  })

  for (const state of TRANSACTION_STATES) {
    for (const account of ["none", ...ACCOUNT_STATES] as const) {
      const accountState = account === "none" ? undefined : account
      it(`maps ${state} with account state ${account} to ${EXPECTED[state][account]}`, () => {
        const read = readMobileTransaction(statusAnswer(state, accountState))
        expect(read.status).toBe(EXPECTED[state][account])
        expect(read.transactionState).toBe(state)
        expect(read.accountState).toBe(accountState)
        // A shopper is told why whenever the payment did not go through, and only then.
        const unpaid = read.status === "error" || read.status === "canceled"
        expect(typeof read.reason === "string" && read.reason.length > 0).toBe(unpaid)
      })
    }
  }

  it("explains a rolled-back finalized payment as one where no money was taken", () => {
    expect(readMobileTransaction(statusAnswer("FINALIZED", "ROLLBACK")).reason).toMatch(/ROLLBACK.*no money was taken/)
  })

  it("adds the scheme's own words to the reason of a failure", () => {
    const read = readMobileTransaction(statusAnswer("REJECTED", "ROLLBACK", "Rejected by the consumer"))
    expect(read.reason).toBe("The mobile payment scheme rejected the payment. Rejected by the consumer.")
  })

  it("falls back to the error message when the scheme gave no additional info", () => {
    const answer: ExtendedEnvelope = { valid: false, state: "FAILED", error: { message: "Scheme unreachable" } }
    expect(readMobileTransaction(answer).reason).toBe(
      "The payment failed at the mobile payment scheme. Scheme unreachable.",
    )
  })

  it("reads the state from the transaction when the envelope's own members are absent", () => {
    const answer: ExtendedEnvelope = {
      valid: true,
      response: {
        request: {
          channel: "WS_REST",
          transaction: {
            state: "FINALIZED",
            accountState: "COMMIT",
            amount: { currencyCode: "EUR", nominalAmount: 100, vatAmount: 22, totalAmount: 122 },
            merchant: {},
          },
        },
      },
    }
    expect(readMobileTransaction(answer)).toEqual({
      status: "captured",
      transactionState: "FINALIZED",
      accountState: "COMMIT",
      amount: { minor: "122", currency: "EUR" },
      transitions: [],
    })
  })

  it("gives the transaction's id, scheme, amount held and history as the service sent them", () => {
    const transitions = [
      { timeStamp: "2026-11-21T10:00:00.000Z", to: "INITIALIZED" as const, event: "CREATE" as const },
      {
        timeStamp: "2026-11-21T10:00:05.000Z",
        from: "INITIALIZED" as const,
        to: "AUTHORIZED" as const,
        event: "AUTHORIZE" as const,
      },
    ]
    const answer: ExtendedEnvelope = {
      valid: true,
      transactionId: 318274,
      state: "AUTHORIZED",
      response: {
        request: {
          channel: "WS_REST",
          transaction: {
            transactionId: 1,
            method: "PSP_B",
            amount: { currencyCode: "JPY", nominalAmount: 5000, vatAmount: 0, totalAmount: 5000 },
            merchant: {},
            transitions,
          },
        },
      },
    }
    expect(readMobileTransaction(answer)).toMatchObject({
      status: "authorized",
      transactionId: "318274",
      method: "PSP_B",
      amount: { minor: "5000", currency: "JPY" },
      transitions,
    })
  })

  it("treats an answer without any state as still pending", () => {
    expect(readMobileTransaction({ valid: true }).status).toBe("pending")
  })
})
