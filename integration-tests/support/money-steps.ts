/**
 * The steps of the money property suite (integration-tests/faults/money-property.spec.ts) on a real
 * store and the simulator, each meeting its fault (money-sequences.ts), and both books read as
 * exact decimals: Medusa's rows, collection and order summary, the gateway's executed operations.
 * The suite's header says how each fault, and the store dying mid-call, is made.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import BigNumber from "bignumber.js"
import { STALE_REQUEST_MS } from "../../src/core/send-once"
import { currencyExponent } from "../../src/money/currencies"
import { CARDS, type CheckoutKit } from "./checkout-kit"
import { type Fault, type Sequence, type Step, stepText } from "./money-sequences"
import type { SimulatorHandle } from "./simulator"
import {
  createCart,
  createProduct,
  createRegion,
  NEXI_CARD_PROVIDER,
  seedStoreBasics,
  startPaymentSession,
} from "./store"

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const WRITES = { capture: `${GATEWAY}/operations/*/captures`, refund: `${GATEWAY}/operations/*/refunds` }
const ORDER_READS = `${GATEWAY}/orders/*`
const COUNTRY = { EUR: "it", JPY: "jp", KWD: "kw" } as const

const UNKNOWN_OUTCOME = /Do not try again/
const NOT_MADE = /was not made\. Nothing was done/
const ONE_CAPTURE = /one capture per authorization/

type Kind = "capture" | "refund"
type Api = Parameters<typeof createCart>[0]

export interface PaidOrder {
  gatewayOrderId: string
  medusaOrderId: string
  paymentId: string
}

/** Medusa's amounts (a number, a string or its raw `{ value }`) as exact decimals. */
export function decimal(value: unknown): BigNumber {
  if (value && typeof value === "object" && "value" in value) return new BigNumber(String(value.value))
  return new BigNumber(String(value ?? 0))
}

export const sum = (values: unknown[]) =>
  values.reduce<BigNumber>((total, value) => total.plus(decimal(value)), new BigNumber(0))

/** Medusa's total in minor units of the currency, rounded half-up. */
export function roundedMinor(total: BigNumber, currency: string): string {
  return total.shiftedBy(currencyExponent(currency)).integerValue(BigNumber.ROUND_HALF_UP).toFixed(0)
}

/** Throws unless the workflow's error text is as expected ("" is success). */
function expectOutcome(what: string, error: string, expected: "done" | RegExp) {
  if (expected === "done" ? error === "" : expected.test(error)) return
  throw new Error(`${what}: expected ${expected === "done" ? "success" : expected}, got ${error || "success"}`)
}

export interface MoneyStepsDeps {
  api: Api & { post(url: string, body?: unknown, config?: unknown): Promise<unknown> }
  container: MedusaContainer
  simulator: SimulatorHandle
  kit: CheckoutKit
  /** A member of staff's headers, for the Sync route. */
  staff: { headers: Record<string, string> }
}

export class MoneySteps {
  constructor(private readonly deps: MoneyStepsDeps) {}

  /** A shop in the sequence's currency, and its order paid on the hosted page. */
  async paidOrder(sequence: Sequence): Promise<PaidOrder> {
    const { container, api, kit } = this.deps
    const currency = sequence.currency.toLowerCase()
    const basics = await seedStoreBasics(container)
    kit.publishableKey = basics.publishableKey
    const region = await createRegion(container, {
      name: sequence.currency,
      currency_code: currency,
      countries: [COUNTRY[sequence.currency]],
    })
    const { variantId } = await createProduct(container, basics.salesChannelId, [
      { currency_code: currency, amount: sequence.unitPrice },
    ])
    const cart = await createCart(api, basics.publishableKey, {
      regionId: region.id,
      variantId,
      quantity: sequence.quantity,
      countryCode: COUNTRY[sequence.currency],
    })
    const { session } = await startPaymentSession(api, basics.publishableKey, cart.id, NEXI_CARD_PROVIDER)
    expect(session.data.amount_minor).toBe(roundedMinor(new BigNumber(sequence.paymentAmount), sequence.currency))
    await kit.pay(session.data.order_id, CARDS.approved)
    const completed = await kit.completeAsShopper(cart.id)
    expect(completed.body.type).toBe("order")
    const [payment] = await kit.paymentsOfOrder(completed.body.order.id)
    expect(decimal(payment.amount).toFixed()).toBe(sequence.paymentAmount)
    return { gatewayOrderId: session.data.order_id, medusaOrderId: completed.body.order.id, paymentId: payment.id }
  }

  /** Medusa's capture or refund workflow; its error text ("" when it succeeded). */
  private async medusaAsks(kind: Kind, paymentId: string, amount?: string): Promise<string> {
    const input = { payment_id: paymentId, ...(amount === undefined ? {} : { amount }) }
    const run =
      kind === "capture"
        ? await capturePaymentWorkflow(this.deps.container).run({ input, throwOnError: false })
        : await refundPaymentWorkflow(this.deps.container).run({ input, throwOnError: false })
    return (run.errors ?? []).map((failure) => failure.error.message).join(" | ")
  }

  /**
   * The store dies while the provider's call is out: Medusa's row is written and the provider
   * called with its id, as the payment module does; the answer is lost with the order
   * unreadable, and nothing follows (no delete of the row, no collection update, no transaction).
   */
  private async diesMidCall(kind: Kind, paymentId: string, amount: string | undefined, phase: "after" | "before") {
    const { payments, payment } = await this.paymentOf(paymentId)
    await this.loseAnswers(kind, phase)
    await this.failOrderReads()
    const rowAmount = amount ?? decimal(payment.raw_amount).toFixed()
    const providers = payments.paymentProviderService_
    if (kind === "capture") {
      const [row] = await payments.createCaptures([{ payment_id: paymentId, amount: rowAmount }])
      const call = providers.capturePayment(payment.provider_id, {
        data: payment.data,
        context: { idempotency_key: row.id },
      })
      await expect(call).rejects.toThrow(UNKNOWN_OUTCOME)
    } else {
      const [row] = await payments.createRefunds([{ payment_id: paymentId, amount: rowAmount }])
      const call = providers.refundPayment(payment.provider_id, {
        data: payment.data,
        amount: rowAmount,
        context: { idempotency_key: row.id },
      })
      await expect(call).rejects.toThrow(UNKNOWN_OUTCOME)
    }
  }

  /** The provider called again for the payment's newest capture or refund row: it answers, sending nothing. */
  private async providerCalledAgain(kind: Kind, paymentId: string) {
    const { payments, payment } = await this.paymentOf(paymentId)
    const newest = { order: { created_at: "DESC" as const }, take: 1 }
    const providers = payments.paymentProviderService_
    if (kind === "capture") {
      const [row] = await payments.listCaptures({ payment_id: paymentId }, newest)
      await providers.capturePayment(payment.provider_id, {
        data: payment.data,
        context: { idempotency_key: row.id },
      })
    } else {
      const [row] = await payments.listRefunds({ payment_id: paymentId }, newest)
      await providers.refundPayment(payment.provider_id, {
        data: payment.data,
        amount: decimal(row.raw_amount).toFixed(),
        context: { idempotency_key: row.id },
      })
    }
  }

  /** The payment module, and the payment as its provider is called with it. */
  private async paymentOf(paymentId: string) {
    const payments = this.deps.container.resolve(Modules.PAYMENT) as unknown as ModuleInternals
    const [payment] = await payments.listPayments(
      { id: paymentId },
      { select: ["id", "data", "provider_id", "raw_amount"] },
    )
    return { payments, payment }
  }

  /** A capture or refund Medusa asks for, meeting its fault. */
  private async medusaStep(step: Step & { kind: Kind; fault: Fault }, paymentId: string) {
    const what = stepText(step)
    const ask = () => this.medusaAsks(step.kind, paymentId, step.amount)
    switch (step.fault) {
      case "none":
        return expectOutcome(what, await ask(), "done")
      case "repeated-same-id":
        expectOutcome(what, await ask(), "done")
        return this.providerCalledAgain(step.kind, paymentId)
      case "answer-lost-once":
        await this.loseAnswers(step.kind, "after", 1)
        return expectOutcome(what, await ask(), "done")
      case "answer-lost-read-back":
        await this.loseAnswers(step.kind, "after")
        return expectOutcome(what, await ask(), "done")
      case "never-arrived-retry":
        await this.loseAnswers(step.kind, "before")
        expectOutcome(what, await ask(), NOT_MADE)
        await this.clearFaults()
        return expectOutcome(`${what}, asked again`, await ask(), "done")
      case "lost-unreadable-retry":
      case "lost-unreadable-left":
        await this.loseAnswers(step.kind, "after")
        await this.failOrderReads()
        expectOutcome(what, await ask(), UNKNOWN_OUTCOME)
        await this.clearFaults()
        if (step.fault === "lost-unreadable-retry") expectOutcome(`${what}, asked again`, await ask(), "done")
        return
      case "died-after-send":
        return this.diesMidCall(step.kind, paymentId, step.amount, "after")
      case "died-before-send":
        return this.diesMidCall(step.kind, paymentId, step.amount, "before")
    }
  }

  /** Runs one step; the id of the operation a back-office step made. */
  async runStep(step: Step, paid: PaidOrder, currency: string): Promise<string | undefined> {
    try {
      switch (step.kind) {
        case "capture":
        case "refund":
          await this.medusaStep(step, paid.paymentId)
          return undefined
        case "second-capture":
          expectOutcome(stepText(step), await this.medusaAsks("capture", paid.paymentId, step.amount), ONE_CAPTURE)
          return undefined
        case "back-office-capture": {
          const [authorization] = await this.deps.kit.gatewayOperations(
            paid.gatewayOrderId,
            "AUTHORIZATION",
            "AUTHORIZED",
          )
          const path = `/operations/${authorization.operationId}/captures`
          return (await this.deps.simulator.gateway<{ operationId: string }>(path, { amount: step.minor, currency }))
            .operationId
        }
        case "back-office-refund": {
          const [capture] = await this.deps.kit.gatewayOperations(paid.gatewayOrderId, "CAPTURE", "EXECUTED")
          const path = `/operations/${capture.operationId}/refunds`
          return (await this.deps.simulator.gateway<{ operationId: string }>(path, { amount: step.minor, currency }))
            .operationId
        }
        case "sync":
          await this.sync(paid.paymentId)
          return undefined
      }
    } finally {
      await this.clearFaults()
    }
  }

  /** The job's stale window gone by: the order's writes and Medusa's rows are older than it. */
  async staleWindowPassed(paid: PaidOrder) {
    const pg = this.deps.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const longAgo = new Date(Date.now() - STALE_REQUEST_MS - 60_000)
    await pg.raw("update nexi_money_write set created_at = ?, updated_at = ? where gateway_ref = ?", [
      longAgo,
      longAgo,
      paid.gatewayOrderId,
    ])
    for (const table of ["capture", "refund"])
      await pg.raw(`update ${table} set created_at = ? where payment_id = ?`, [longAgo, paid.paymentId])
  }

  /** What Medusa shows: its rows, the collection's totals and the order's summary, as exact decimals. */
  async medusaBooks(orderId: string) {
    const query = this.deps.container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "order",
      fields: [
        "summary.*",
        "payment_collections.captured_amount",
        "payment_collections.raw_captured_amount",
        "payment_collections.refunded_amount",
        "payment_collections.raw_refunded_amount",
        "payment_collections.payments.captures.raw_amount",
        "payment_collections.payments.refunds.raw_amount",
      ],
      filters: { id: orderId },
    })
    const [order] = data as Array<Record<string, any>>
    const [collection] = order.payment_collections
    const [payment] = collection.payments
    const summary = order.summary ?? {}
    return {
      captures: sum(payment.captures.map((row: { raw_amount: unknown }) => row.raw_amount)),
      refunds: sum(payment.refunds.map((row: { raw_amount: unknown }) => row.raw_amount)),
      collection: {
        captured: decimal(collection.raw_captured_amount ?? collection.captured_amount).toFixed(),
        refunded: decimal(collection.raw_refunded_amount ?? collection.refunded_amount).toFixed(),
      },
      summary: {
        captured: decimal(summary.raw_paid_total ?? summary.paid_total).toFixed(),
        refunded: decimal(summary.raw_refunded_total ?? summary.refunded_total).toFixed(),
      },
      rows: payment.captures.length + payment.refunds.length,
    }
  }

  async gatewayBooks(orderId: string) {
    const { orderStatus, operations } = await this.deps.kit.gatewayOrder(orderId)
    const executed = (type: string, result: string) =>
      operations.filter((operation) => operation.operationType === type && operation.operationResult === result)
    const captures = executed("CAPTURE", "EXECUTED")
    const refunds = executed("REFUND", "REFUNDED")
    const total = (list: Array<Record<string, any>>) =>
      list.reduce((minor, operation) => minor + BigInt(operation.operationAmount), 0n).toString()
    return {
      capturedAmount: String(orderStatus.capturedAmount),
      captures: captures.map((operation) => String(operation.operationAmount)),
      capturedMinor: total(captures),
      refundIds: refunds.map((operation) => String(operation.operationId)),
      refundedMinor: total(refunds),
      operations: operations.length,
    }
  }

  /** Staff's Sync of the payment. */
  async sync(paymentId: string) {
    await this.deps.api.post(`/admin/nexi/payments/${paymentId}/sync`, {}, this.deps.staff)
  }

  /** The answer of every transport attempt (or the first only) is lost: after the gateway acted, or before. */
  private loseAnswers(kind: Kind, phase: "after" | "before", times = 8) {
    return this.deps.simulator.control("POST", "/faults", {
      match: { method: "POST", path: WRITES[kind] },
      times,
      phase,
      action: { type: "reset" },
    })
  }

  private failOrderReads() {
    return this.deps.simulator.control("POST", "/faults", {
      match: { method: "GET", path: ORDER_READS },
      times: 500,
      action: { type: "status", status: 503 },
    })
  }

  /** Clears the request faults; clearing takes the notification faults too, so they are set again. */
  private async clearFaults() {
    await this.deps.simulator.control("DELETE", "/faults")
    await this.deps.simulator.control("POST", "/faults/notifications", { drop: 1000 })
  }
}

type RowsConfig = { order: { created_at: "DESC" }; take: number }

/** The payment module's parts a dying call and a repeated one are made with (Medusa's own, untyped). */
interface ModuleInternals {
  listPayments(
    filters: { id: string },
    config: { select: string[] },
  ): Promise<Array<{ id: string; data: Record<string, unknown>; provider_id: string; raw_amount: unknown }>>
  listCaptures(filters: { payment_id: string }, config: RowsConfig): Promise<Array<{ id: string }>>
  listRefunds(filters: { payment_id: string }, config: RowsConfig): Promise<Array<{ id: string; raw_amount: unknown }>>
  createCaptures(rows: Array<{ payment_id: string; amount: string }>): Promise<Array<{ id: string }>>
  createRefunds(rows: Array<{ payment_id: string; amount: string }>): Promise<Array<{ id: string }>>
  paymentProviderService_: {
    capturePayment(providerId: string, input: unknown): Promise<unknown>
    refundPayment(providerId: string, input: unknown): Promise<unknown>
  }
}
