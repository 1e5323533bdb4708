/**
 * The APM providers against the simulator over real HTTP. Medusa's record services are the
 * one thing stood in for (a session lookup for the reconcile request): they belong to the
 * payment module's container, which only an integration test boots.
 */
import type { InitiatePaymentInput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { HttpApmClient } from "../../../../apm/http-apm-client"
import { type RunningSimulator, startSimulator } from "../../../../simulator"
import { NexiCardProviderService } from "../../card/card-provider"
import type { NexiOptions, NexiOptionsInput } from "../../options"
import { CART_CONTEXT_KEY } from "../../shared/cart-context"
import { reconcileRequest } from "../../shared/reconcile-request"
import type { NexiApmProviderService } from "../apm-provider"
import { NexiApmPspAEComProviderService, NexiApmPspBProviderService, NexiApmPspCProviderService } from "../scheme-providers"

let sim: RunningSimulator
let reader: HttpApmClient

beforeAll(async () => {
  sim = await startSimulator({ port: 0, control: true })
  reader = new HttpApmClient({ consumerKey: "sim-key", consumerSecret: "sim-secret", environment: sim.apmUrl })
})

afterAll(async () => {
  reader.close()
  await sim.close()
})

function options(apm: Partial<NonNullable<NexiOptionsInput["apm"]>> | null = {}): NexiOptions {
  return {
    apiKey: "5d952446-9004-4023-9eae-a527a152846b",
    environment: sim.gatewayUrl,
    resultUrl: "http://shop.test/result",
    cancelUrl: "http://shop.test/cancel",
    notificationUrl: "http://shop.test",
    ...(apm === null
      ? {}
      : {
          apm: {
            consumerKey: "sim-key",
            consumerSecret: "sim-secret",
            merchantId: "sim-merchant",
            environment: sim.apmUrl,
            terminalReference: "T-1",
            retries: 0,
            ...apm,
          },
        }),
  } as NexiOptions
}

const sessions = new Map<string, Record<string, unknown>>()

/** The session lookup reconcile requests need, backed by what the tests created. */
const cradle = {
  paymentSessionService: {
    retrieve: async (id: string) => ({ id, status: "pending", created_at: new Date(), ...sessions.get(id) }),
    list: async () => [],
  },
}

function provider<T extends NexiApmProviderService>(
  Service: new (cradle: Record<string, unknown>, options: NexiOptions) => T,
  apm?: Parameters<typeof options>[0],
): T {
  return new Service(cradle, options(apm))
}

let sessionCounter = 0
function paymentInput(overrides: Partial<InitiatePaymentInput> & { consumerId?: string | null } = {}): InitiatePaymentInput {
  const sessionId = `payses_test_${++sessionCounter}`
  const { consumerId = "+4712345678", ...rest } = overrides
  return {
    amount: 24.4,
    currency_code: "eur",
    data: {
      session_id: sessionId,
      ...(consumerId === null ? {} : { consumer_id: consumerId }),
      [CART_CONTEXT_KEY]: {
        cart_id: "cart_1",
        locale: "it-IT",
        email: "anna@example.com",
        total: 24.4,
        tax_total: 4.4,
        billing_address: { first_name: "Anna", last_name: "Rossi", country_code: "it" },
        items: [{ id: "item_1", title: "Cup", quantity: 2, unit_price: 10, total: 24.4, tax_total: 4.4, tax_rate: 22 }],
      },
    },
    context: { idempotency_key: sessionId },
    ...rest,
  }
}

async function control(transactionId: unknown, action: "approve" | "reject" | "expire") {
  const answer = await fetch(`${sim.controlUrl}/apm/${transactionId}/${action}`, { method: "POST" })
  expect(answer.status).toBe(200)
}

async function expectMedusaError(promise: Promise<unknown>, type: string, message: RegExp) {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(MedusaError)
  expect((error as MedusaError).type).toBe(type)
  expect((error as MedusaError).message).toMatch(message)
}

describe("initiatePayment", () => {
  it("starts a pending payment with the cart's VAT and lines, and gives the storefront the approval link", async () => {
    const { data, status } = await provider(NexiApmPspBProviderService).initiatePayment(paymentInput())
    expect(status).toBe("pending")
    expect(data).toMatchObject({ method: "PSP_B", state: "PENDING", status: "pending", amount_minor: "2440", vat_minor: "440", currency: "EUR" })
    expect(data?.approval_url).toBe(`${sim.url}/apm/phone/${data?.transaction_id}`)
    expect(data).not.toHaveProperty(CART_CONTEXT_KEY, expect.anything())
    expect(JSON.stringify(data)).not.toContain("sim-secret")

    const transaction = (await reader.getTransaction(String(data?.transaction_id))).response?.request?.transaction
    expect(transaction?.amount).toEqual({ currencyCode: "EUR", nominalAmount: 2000, vatAmount: 440, totalAmount: 2440 })
    expect(transaction?.consumer).toEqual({ consumerId: "+4712345678", name: "Anna Rossi" })
    expect(transaction?.order?.items).toEqual([
      expect.objectContaining({ quantity: 2, unitPrice: 1000, taxRate: 2200, taxAmount: 440, grossTotalAmount: 2440, netTotalAmount: 2000 }),
    ])
  })

  it("sends lang and country as additional properties for the e-commerce scheme only", async () => {
    const eCom = await provider(NexiApmPspAEComProviderService).initiatePayment(paymentInput())
    const other = await provider(NexiApmPspBProviderService).initiatePayment(paymentInput())
    const properties = async (data: Record<string, unknown> | undefined) =>
      (await reader.getTransaction(String(data?.transaction_id))).response?.request?.additionalProperties
    expect(await properties(eCom.data)).toEqual([
      { key: "lang", value: "it" },
      { key: "country", value: "IT" },
    ])
    expect(await properties(other.data)).toBeUndefined()
  })

  it("is idempotent for retries of one session", async () => {
    const input = paymentInput()
    const first = await provider(NexiApmPspBProviderService).initiatePayment(input)
    const again = await provider(NexiApmPspBProviderService).initiatePayment(input)
    expect(again.data?.transaction_id).toBe(first.data?.transaction_id)
  })

  it("keeps a declined payment (201) as a session in error with the scheme's reason, not a throw", async () => {
    const { data, status } = await provider(NexiApmPspBProviderService).initiatePayment(paymentInput({ consumerId: "+4700000000" }))
    expect(status).toBe("error")
    expect(data).toMatchObject({ status: "error", state: "REJECTED" })
    expect(data?.reason).toBe("The mobile payment scheme rejected the payment. The scheme refused the consumer.")
  })

  it("refuses a session without a consumer id before calling the service", async () => {
    await expectMedusaError(
      provider(NexiApmPspBProviderService).initiatePayment(paymentInput({ consumerId: null })),
      MedusaError.Types.INVALID_DATA,
      /data\.consumer_id/,
    )
  })

  it("refuses a scheme the store did not list in apm.methods", async () => {
    await expectMedusaError(
      provider(NexiApmPspCProviderService, { methods: ["PSP_B"] }).initiatePayment(paymentInput()),
      MedusaError.Types.NOT_ALLOWED,
      /PSP_C is not enabled.*apm\.methods \(now: PSP_B\)/,
    )
  })

  it("refuses every scheme when the apm options are absent, while the card provider still starts", async () => {
    await expectMedusaError(
      provider(NexiApmPspBProviderService, null).initiatePayment(paymentInput()),
      MedusaError.Types.NOT_ALLOWED,
      /mobile payments are not configured.*`apm` options/,
    )
    expect(() => new NexiCardProviderService({}, options(null))).not.toThrow()
  })

  it("says the credentials are wrong when the service answers 401", async () => {
    await expectMedusaError(
      provider(NexiApmPspBProviderService, { consumerSecret: "wrong" }).initiatePayment(paymentInput()),
      MedusaError.Types.UNAUTHORIZED,
      /refused the credentials\. Check the API key or consumer key and secret/,
    )
  })

  it("passes on the scheme's refusal of a currency it does not take", async () => {
    await expectMedusaError(
      provider(NexiApmPspCProviderService).initiatePayment(paymentInput()),
      MedusaError.Types.NOT_ALLOWED,
      /Currency EUR is not accepted by PSP_C/,
    )
  })
})

async function startedPayment(consumerId = "+4712345678") {
  const service = provider(NexiApmPspBProviderService)
  const input = paymentInput({ consumerId })
  const { data } = await service.initiatePayment(input)
  sessions.set(String(input.data?.session_id), { data })
  return { service, data: data as Record<string, unknown>, sessionId: String(input.data?.session_id) }
}

describe("status reads", () => {
  it("says pending while waiting, captured once the shopper approved (the scheme finalizes at once)", async () => {
    const { service, data } = await startedPayment()
    expect((await service.authorizePayment({ data })).status).toBe("pending")
    await control(data.transaction_id, "approve")
    const authorized = await service.authorizePayment({ data })
    expect(authorized.status).toBe("captured")
    expect(authorized.data).toMatchObject({ state: "FINALIZED", account_state: "COMMIT", status: "captured" })
    expect(authorized.data?.approval_url).toBeUndefined()
  })

  it("gives the scheme's reason for a rejection in the app", async () => {
    const { service, data } = await startedPayment()
    await control(data.transaction_id, "reject")
    const { status, data: read } = await service.getPaymentStatus({ data })
    expect(status).toBe("error")
    expect(read?.reason).toBe("The mobile payment scheme rejected the payment. Rejected by the consumer.")
  })

  it("answers a reconcile request with the action and the amount in major units", async () => {
    const { service, data, sessionId } = await startedPayment("+4799991111")
    const result = await service.getWebhookActionAndData(reconcileRequest(sessionId))
    expect(result.action).toBe("captured")
    expect(result.data?.session_id).toBe(sessionId)
    expect(String(result.data?.amount)).toBe("24.4")
    expect(data.transaction_id).toBeDefined()
  })

  it("answers a timed-out payment as failed, with the reason", async () => {
    const { service, sessionId } = await startedPayment("+4799999999")
    const result = await service.getWebhookActionAndData(reconcileRequest(sessionId))
    expect(result.action).toBe("failed")
    expect((result.data as { nexi_reason?: string }).nexi_reason).toMatch(/not approved in the mobile payment app in time/)
  })

  it("reverses a payment still pending after apm.pollTimeoutSeconds and answers it failed", async () => {
    const service = provider(NexiApmPspBProviderService, { pollTimeoutSeconds: 60 })
    const input = paymentInput()
    const { data } = await service.initiatePayment(input)
    const sessionId = String(input.data?.session_id)
    sessions.set(sessionId, { data, created_at: new Date(Date.now() - 61_000) })
    const result = await service.getWebhookActionAndData(reconcileRequest(sessionId))
    expect(result.action).toBe("failed")
    expect((result.data as { nexi_reason?: string }).nexi_reason).toBe("The payment was not approved in the mobile payment app within 60 seconds.")
    expect((await reader.getTransaction(String(data?.transaction_id))).state).toBe("CANCELLED")
  })

  it("ignores anything that is not a reconcile request", async () => {
    const result = await provider(NexiApmPspBProviderService).getWebhookActionAndData({ data: { transactionId: 1 }, rawData: "", headers: {} })
    expect(result.action).toBe("not_supported")
  })
})

describe("capture, refund and cancel", () => {
  it("confirms the capture of a finalized payment and refuses one that is not finalized", async () => {
    const captured = await startedPayment("+4711111111")
    expect((await captured.service.authorizePayment({ data: captured.data })).status).toBe("captured")
    await expect(captured.service.capturePayment({ data: captured.data })).resolves.toHaveProperty("data.state", "FINALIZED")

    const pending = await startedPayment()
    await expectMedusaError(
      pending.service.capturePayment({ data: pending.data }),
      MedusaError.Types.NOT_ALLOWED,
      /captures automatically when the payment is finalized.*PENDING, not finalized yet/,
    )
  })

  it("refunds in parts, VAT in the payment's proportion, each refund linked to the payment", async () => {
    const { service, data } = await startedPayment("+4711111111")
    await service.authorizePayment({ data })
    const first = await service.refundPayment({ data, amount: { value: "12.2", precision: 20 } as never, context: { idempotency_key: "ref_1" } })
    expect(first.data).toMatchObject({ refunded_minor: "1220", refunded_vat_minor: "220" })
    const second = await service.refundPayment({ data: first.data!, amount: 12.2, context: { idempotency_key: "ref_2" } })
    expect(second.data).toMatchObject({ refunded_minor: "2440", refunded_vat_minor: "440" })
    const refunds = await Promise.all(
      ((second.data?.refund_transaction_ids ?? []) as string[]).map(async (id) => (await reader.getTransaction(id)).response?.request?.transaction),
    )
    expect(refunds.map((refund) => [refund?.originalReference, refund?.amount])).toEqual([
      [String(data.transaction_id), { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 220, totalAmount: 1220 }],
      [String(data.transaction_id), { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 220, totalAmount: 1220 }],
    ])
    // A retry of the same refund is not sent twice: the service would refuse a refund beyond the payment.
    await expect(service.refundPayment({ data: first.data!, amount: 12.2, context: { idempotency_key: "ref_2" } })).resolves.toBeDefined()
    await expectMedusaError(
      service.refundPayment({ data: second.data!, amount: 1, context: { idempotency_key: "ref_3" } }),
      MedusaError.Types.NOT_ALLOWED,
      /exceeds what remains refundable/,
    )
  })

  it("reverses a payment on cancel, and needs nothing for one that was never paid", async () => {
    const { service, data } = await startedPayment("+4711111111")
    await service.authorizePayment({ data })
    const canceled = await service.cancelPayment({ data })
    expect(canceled.data).toMatchObject({ status: "canceled", state: "CANCELLED" })
    const original = await reader.getTransaction(String(data.transaction_id))
    expect(original.state).toBe("CANCELLED")
    const reversal = await reader.getTransaction(String(canceled.data?.reversal_transaction_id))
    expect(reversal.response?.request?.transaction).toMatchObject({ originalReference: String(data.transaction_id), terminalReference: "T-1" })

    const rejected = await startedPayment("+4711112222")
    await rejected.service.authorizePayment({ data: rejected.data })
    await expect(rejected.service.cancelPayment({ data: rejected.data })).resolves.toHaveProperty("data.status", "canceled")
  })

  it("keeps the transaction for an update of the same amount, and replaces (reversing) it for a new amount", async () => {
    const { service, data } = await startedPayment()
    const marked = await service.updatePayment({ data: { ...data, status: "error", reason: "x" }, amount: 24.4, currency_code: "eur" })
    expect(marked.data).toMatchObject({ transaction_id: data.transaction_id, reason: "x" })
    const changed = await service.updatePayment({ data, amount: 30, currency_code: "eur" })
    expect(changed.data?.transaction_id).not.toBe(data.transaction_id)
    expect(changed.data).toMatchObject({ amount_minor: "3000", status: "pending" })
    expect((await reader.getTransaction(String(data.transaction_id))).state).toBe("CANCELLED")
  })

  it("reverses a still pending payment when Medusa deletes its session, so it cannot be approved later", async () => {
    const { service, data } = await startedPayment()
    await service.deletePayment({ data })
    expect((await reader.getTransaction(String(data.transaction_id))).state).toBe("CANCELLED")
  })

  it("names the missing terminal reference when a reversal is needed", async () => {
    const service = provider(NexiApmPspBProviderService, { terminalReference: undefined })
    const input = paymentInput()
    const { data } = await service.initiatePayment(input)
    await expectMedusaError(service.cancelPayment({ data: data! }), MedusaError.Types.NOT_ALLOWED, /apm\.terminalReference/)
  })
})
