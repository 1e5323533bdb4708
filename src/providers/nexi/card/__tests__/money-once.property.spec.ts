/**
 * Property: for any sequence of partial captures and refunds in EUR, JPY and KWD, with any of
 * them losing its answer (the gateway made it, or not) or repeated (the same Medusa call
 * again, or again with a new Medusa id after Medusa deleted its row), the gateway's totals
 * equal Medusa's rounded totals and nothing moves twice.
 *
 * The card provider runs as Medusa calls it, through the one sender, on the in-memory ledger.
 * The gateway is stood in by an in-memory GatewayClient (a boundary we own): fast-check runs
 * hundreds of sequences, which the simulator over HTTP would make minutes long; the
 * card-ledger spec and the integration suites cover the same paths against the simulator.
 */
import BigNumber from "bignumber.js"
import fc from "fast-check"
import { testCradle } from "../../../../../test-support/provider-cradle"
import type { GatewayClient } from "../../../../gateway/gateway-client"
import type { Operation, OrderDetails, PostOperationRequest } from "../../../../gateway/schemas"
import { GatewayUnavailableError, InvalidRequestError, OutcomeUnknownError } from "../../../../http/errors"
import { currencyExponent } from "../../../../money/currencies"
import { NexiCardProviderService } from "../card-provider"

const ORDER_ID = "PROPERTY0001"
const AUTHORIZATION_ID = "op-auth"
const AUTHORIZED_MINOR = 10_000_000n

/** What the next write meets: its answer lost after or before the gateway acted, the order unreadable meanwhile. */
interface Fault {
  lose?: "after" | "before"
  readDown?: boolean
}

/** One gateway order, as the gateway keeps it: operations made once per idempotency key. */
class InMemoryGateway {
  readonly operations: Operation[] = [
    {
      operationId: AUTHORIZATION_ID,
      operationType: "AUTHORIZATION",
      operationResult: "AUTHORIZED",
      operationAmount: AUTHORIZED_MINOR.toString(),
    },
  ]
  private readonly byKey = new Map<string, Operation>()
  fault: Fault = {}

  constructor(private readonly currency: string) {}

  totalMinor(type: "CAPTURE" | "REFUND"): bigint {
    return this.operations
      .filter((operation) => operation.operationType === type)
      .reduce((sum, operation) => sum + BigInt(operation.operationAmount ?? "0"), 0n)
  }

  client(): GatewayClient {
    const client: Partial<GatewayClient> = {
      getOrder: async (): Promise<OrderDetails> => {
        if (this.fault.readDown) throw new GatewayUnavailableError("gateway", "the gateway is down")
        return {
          orderStatus: {
            order: { orderId: ORDER_ID, amount: AUTHORIZED_MINOR.toString(), currency: this.currency },
            authorizedAmount: AUTHORIZED_MINOR.toString(),
          },
          operations: this.operations.map((operation) => ({ ...operation })),
          paymentLinks: [],
        } as OrderDetails
      },
      capture: (_operationId, body, key) => this.write("CAPTURE", "EXECUTED", body, key),
      refund: (_operationId, body, key) => this.write("REFUND", "REFUNDED", body, key),
    }
    return client as GatewayClient
  }

  private async write(type: "CAPTURE" | "REFUND", result: string, body: PostOperationRequest, key: string) {
    if (this.fault.lose === "before") throw new OutcomeUnknownError("gateway", "no answer")
    let operation = this.byKey.get(key)
    if (!operation) {
      // As the gateway does: never more captured than authorized, nor more refunded than captured.
      const left =
        type === "CAPTURE"
          ? AUTHORIZED_MINOR - this.totalMinor("CAPTURE")
          : this.totalMinor("CAPTURE") - this.totalMinor("REFUND")
      if (BigInt(body.amount) > left) throw new InvalidRequestError("gateway", `only ${left} left`, { status: 400 })
      operation = {
        operationId: `op-${this.operations.length}`,
        operationType: type,
        operationResult: result,
        operationAmount: body.amount,
      } as Operation
      this.operations.push(operation)
      this.byKey.set(key, operation)
    }
    if (this.fault.lose === "after") throw new OutcomeUnknownError("gateway", "no answer")
    return { operationId: operation.operationId as string, operationTime: new Date().toISOString() }
  }
}

/** One card payment as Medusa holds it: capture and refund rows, each deleted when its provider call throws. */
class MedusaPayment {
  private readonly cradle = testCradle()
  private readonly payment = {
    captures: [] as Array<Record<string, unknown>>,
    refunds: [] as Array<Record<string, unknown>>,
  }
  private readonly provider: NexiCardProviderService
  private readonly data: Record<string, unknown>
  private rows = 0

  constructor(
    readonly gateway: InMemoryGateway,
    readonly currency: string,
  ) {
    const options = {
      apiKey: "property",
      environment: "http://127.0.0.1:9",
      notificationUrl: "http://localhost:9000",
      resultUrl: "https://shop.test/result",
      cancelUrl: "https://shop.test/cancel",
    }
    this.provider = new NexiCardProviderService(this.cradle, options as never, gateway.client())
    this.data = {
      order_id: ORDER_ID,
      payment_operation_id: AUTHORIZATION_ID,
      currency,
      amount_minor: AUTHORIZED_MINOR.toString(),
      status: "authorized",
    }
  }

  get ledger() {
    return this.cradle.ledger
  }

  newId(kind: "capt" | "ref"): string {
    this.rows += 1
    return `${kind}_${this.rows}`
  }

  /** Medusa's call; false when the provider threw and Medusa deleted its row. */
  async call(kind: "capture" | "refund", id: string, amount: string): Promise<boolean> {
    const rows = kind === "capture" ? this.payment.captures : this.payment.refunds
    const records = kind === "capture" ? this.cradle.captures : this.cradle.refunds
    if (!records.has(id)) {
      const row = { id, amount, metadata: null, payment: this.payment }
      rows.push(row)
      records.set(id, row)
    }
    try {
      const context = { idempotency_key: id }
      if (kind === "capture") await this.provider.capturePayment({ data: this.data, context } as never)
      else await this.provider.refundPayment({ data: this.data, amount, context } as never)
      return true
    } catch {
      rows.splice(
        rows.findIndex((row) => row.id === id),
        1,
      )
      records.delete(id)
      return false
    }
  }

  /** Medusa's total of its capture (or refund) rows, rounded half-up to the currency's minor unit. */
  roundedMinor(kind: "capture" | "refund"): bigint {
    const rows = kind === "capture" ? this.payment.captures : this.payment.refunds
    const total = rows.reduce((sum, row) => sum.plus(row.amount as string), new BigNumber(0))
    return BigInt(total.shiftedBy(currencyExponent(this.currency)).integerValue(BigNumber.ROUND_HALF_UP).toFixed(0))
  }

  /** Medusa's unrounded total, in tenths of a minor unit (the generator's unit). */
  tenths(kind: "capture" | "refund"): number {
    const rows = kind === "capture" ? this.payment.captures : this.payment.refunds
    const total = rows.reduce((sum, row) => sum.plus(row.amount as string), new BigNumber(0))
    return total.shiftedBy(currencyExponent(this.currency) + 1).toNumber()
  }
}

const step = fc.record({
  kind: fc.constantFrom("capture" as const, "refund" as const),
  // Tenths of a minor unit, at least one minor unit: half-cents (1.005 EUR) are Medusa's everyday amounts.
  tenths: fc.integer({ min: 10, max: 50_000 }),
  lose: fc.constantFrom(undefined, "after" as const, "before" as const),
  readDown: fc.boolean(),
  repeatSame: fc.boolean(),
})

describe("money by totals, once, through the sender (property)", () => {
  it("keeps the gateway's totals equal to Medusa's rounded totals, and moves nothing twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("EUR", "JPY", "KWD"),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (currency, steps) => {
          const gateway = new InMemoryGateway(currency)
          const medusa = new MedusaPayment(gateway, currency)
          for (const { kind, tenths, lose, readDown, repeatSame } of steps) {
            // Medusa itself refuses a refund of more than it captured.
            if (kind === "refund" && medusa.tenths("refund") + tenths > medusa.tenths("capture")) continue
            const amount = new BigNumber(tenths).shiftedBy(-(currencyExponent(currency) + 1)).toFixed()
            const id = medusa.newId(kind === "capture" ? "capt" : "ref")
            gateway.fault = { lose, readDown }
            const done = await medusa.call(kind, id, amount)
            gateway.fault = {}
            // Staff press again: a call Medusa rolled back comes with a new id, and must go through.
            if (!done)
              expect(await medusa.call(kind, medusa.newId(kind === "capture" ? "capt" : "ref"), amount)).toBe(true)
            else if (repeatSame) expect(await medusa.call(kind, id, amount)).toBe(true)
          }
          expect(gateway.totalMinor("CAPTURE")).toBe(medusa.roundedMinor("capture"))
          expect(gateway.totalMinor("REFUND")).toBe(medusa.roundedMinor("refund"))
          const executed = medusa.ledger.writes.filter((write) => write.outcome === "executed")
          const operationIds = executed.map((write) => write.gateway_operation_id)
          expect(new Set(operationIds).size).toBe(operationIds.length)
          expect(operationIds.length).toBe(gateway.operations.length - 1)
        },
      ),
      { numRuns: 150 },
    )
  })
})
