/**
 * The bodies of a payment's refunds and reversals, byte for byte: the service replays an answer
 * only for the identical body under the same key, so a refactoring that changed a key's order
 * or a value would turn a lost write's settling into a key conflict, or a second write.
 */
import { InMemoryLedger } from "../../../test-support/in-memory-ledger"
import type { ApmClient } from "../../apm/apm-client"
import type { InitializeRequest, TransactionType } from "../../apm/schemas"
import type { MoneyWrite } from "../../modules/nexi-ledger/types"
import { idempotencyUuid } from "../idempotency"
import { followUpRequest, type OriginalPayment } from "../mobile/apm-requests"
import { refundOnce } from "../mobile/apm-sessions"
import { ApmWrites } from "../mobile/apm-writes"
import type { ApmOptions } from "../options"

const sender = { merchantId: "m-1", method: "PSP_B" as const }

const original: OriginalPayment = {
  transactionId: "7000000001",
  amount: { currencyCode: "EUR", nominalAmount: 10000, vatAmount: 2200, totalAmount: 12200 },
  consumer: { consumerId: "+4712345678", name: "Anna Rossi" },
}

const PURCHASE = '{"currencyCode":"EUR","nominalAmount":10000,"vatAmount":2200,"totalAmount":12200}'
const CONSUMER = '"consumer":{"consumerId":"+4712345678","name":"Anna Rossi"}'
const REVERSAL = `{"merchantId":"m-1","method":"PSP_B","purchaseAmount":${PURCHASE},${CONSUMER},"originalReference":"7000000001","terminalReference":"T-1"}`
const FIRST_REFUND = `{"merchantId":"m-1","method":"PSP_B","purchaseAmount":{"currencyCode":"EUR","nominalAmount":5000,"vatAmount":1100,"totalAmount":6100},${CONSUMER},"originalReference":"7000000001"}`
const SECOND_REFUND = `{"merchantId":"m-1","method":"PSP_B","purchaseAmount":{"currencyCode":"EUR","nominalAmount":2732,"vatAmount":601,"totalAmount":3333},${CONSUMER},"originalReference":"7000000001"}`

describe("a refund's and a reversal's body", () => {
  it("is the same JSON, key for key, whether built to send or rebuilt from the ledger", async () => {
    const body = (what: Parameters<typeof followUpRequest>[2]) =>
      JSON.stringify(followUpRequest(sender, original, what))
    expect(body({ terminalReference: "T-1" })).toBe(REVERSAL)
    expect(body({ refundMinor: 6100n, before: { totalMinor: 0n, vatMinor: 0n } })).toBe(FIRST_REFUND)
    expect(body({ refundMinor: 3333n, before: { totalMinor: 6100n, vatMinor: 1100n } })).toBe(SECOND_REFUND)

    const { writes: apmWrites } = setUp()
    const write = (kind: MoneyWrite["kind"], key: string, amount: string) =>
      ({ id: key, kind, idempotency_key: key, amount_minor: amount, outcome: "executed" }) as MoneyWrite
    const writes = [
      write("apm_refund", "r1", "6100"),
      write("apm_refund", "r2", "3333"),
      write("apm_reversal", "v", "0"),
    ]
    const requestOf = apmWrites.requestOf(original)
    expect(await Promise.all(writes.map(async (one) => JSON.stringify(await requestOf(one, writes))))).toEqual([
      FIRST_REFUND,
      SECOND_REFUND,
      REVERSAL,
    ])
  })

  it("is sent under the key Medusa's refund id or the reversed transaction makes, and recorded before", async () => {
    const { writes, ledger, sent } = setUp()
    const refund = await refundOnce({
      writes,
      original,
      refundId: "ref_1",
      refundMinor: 6100n,
      refunded: { totalMinor: 0n, vatMinor: 0n },
    })
    const reversal = await writes.reverse(original, {
      origin: "medusa",
      key: "7000000001:reversal",
      medusaRef: "payses_1",
      action: "cancel the payment",
    })
    expect(sent).toEqual([
      { type: "refund", key: idempotencyUuid("ref_1"), body: FIRST_REFUND },
      { type: "reversal", key: idempotencyUuid("7000000001:reversal"), body: REVERSAL },
    ])
    expect([refund, reversal]).toEqual([{ transactionIds: ["7000000101"], vatMinor: 1100n }, "7000000102"])
    const recorded = ledger.writes.map(({ id, created_at, updated_at, ...rest }) => rest)
    expect(recorded).toEqual([
      {
        kind: "apm_refund",
        origin: "medusa",
        idempotency_key: idempotencyUuid("ref_1"),
        gateway_ref: "7000000001",
        target_ref: "7000000001",
        amount_minor: "6100",
        currency: "EUR",
        medusa_ref: "ref_1",
        outcome: "executed",
        gateway_operation_id: "7000000101",
        follow_state: "none",
        claimed_by: "ref_1",
        message: null,
        resend: null,
      },
      {
        kind: "apm_reversal",
        origin: "medusa",
        idempotency_key: idempotencyUuid("7000000001:reversal"),
        gateway_ref: "7000000001",
        target_ref: "7000000001",
        amount_minor: "12200",
        currency: "EUR",
        medusa_ref: "payses_1",
        outcome: "executed",
        gateway_operation_id: "7000000102",
        follow_state: "none",
        claimed_by: "payses_1",
        message: null,
        resend: null,
      },
    ])
  })
})

/** Refunds and reversals over a fake service that answers each write with a new finalized transaction. */
function setUp() {
  const ledger = new InMemoryLedger()
  const sent: Array<{ type: TransactionType; key: string; body: string }> = []
  const client = {
    initializeWithIdempotency: async (type: TransactionType, body: InitializeRequest, key: string) => {
      sent.push({ type, key, body: JSON.stringify(body) })
      const transactionId = 7000000100 + sent.length
      return { valid: true, response: { request: { transaction: { transactionId, state: "FINALIZED" } } } }
    },
  } as unknown as ApmClient
  const apm = { merchantId: "m-1", terminalReference: "T-1" } as ApmOptions
  const rows = { holdsRowOf: async () => true, rowDeleted: async () => false }
  return { writes: new ApmWrites({ apm, client, ledger, rows, method: "PSP_B" }), ledger, sent }
}
