/**
 * The APM providers against the simulator over real HTTP. Medusa's record services and the
 * plugin's ledger are the things stood in for (a session and refund lookup, an in-memory
 * ledger): they belong to module containers, which only an integration test boots.
 */
import type { InitiatePaymentInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { InMemoryLedger } from "../../../../../test-support/in-memory-ledger"
import { HttpApmClient } from "../../../../apm/http-apm-client"
import type { ApmMethod } from "../../../../apm/schemas"
import { CART_CONTEXT_KEY } from "../../../../core/cart-context"
import type { GatewayPayment } from "../../../../core/gateway-money-records"
import { idempotencyUuid } from "../../../../core/idempotency"
import type { SyncOutcome } from "../../../../core/medusa-payments"
import { PaymentRecords, type SessionRecord } from "../../../../core/medusa-records"
import { ApmTransactions, paymentStartsFor } from "../../../../core/mobile/apm-transactions"
import { MobileSync } from "../../../../core/mobile/mobile-sync"
import type { PaymentStarts } from "../../../../core/mobile/payment-start"
import { type NexiOptions, type NexiOptionsInput, parseNexiOptions } from "../../../../core/options"
import { type MoneyWrite, NEXI_LEDGER_MODULE } from "../../../../modules/nexi-ledger/types"
import { type RunningSimulator, startSimulator } from "../../../../simulator"
import { NexiCardProviderService } from "../../card/card-provider"
import {
  type NexiApmProviderService,
  NexiApmPspAEComProviderService,
  NexiApmPspBProviderService,
  NexiApmPspCProviderService,
} from "../apm-provider"

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
    resultUrl: "https://shop.test/result",
    cancelUrl: "https://shop.test/cancel",
    notificationUrl: "https://shop.test",
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
let ledger: InMemoryLedger
const logged: Array<{ level: string; line: string }> = []

function logLine(level: string) {
  return (line: string) => {
    logged.push({ level, line })
  }
}

/**
 * The session lookup the sync needs, backed by what the tests created (a session
 * not in the map is a deleted one), the refund lookup refunds need, and the ledger.
 */
const cradle: Record<string, unknown> = {
  paymentSessionService: {
    retrieve: async (id: string) => {
      const session = sessions.get(id)
      if (!session) throw new MedusaError(MedusaError.Types.NOT_FOUND, `PaymentSession with id: ${id} was not found`)
      return { id, status: "pending", created_at: new Date(), ...session }
    },
  },
  // Each refund alone in its payment: money by totals then sends exactly the amount asked.
  // A refund Medusa rolled back (its provider call threw) is gone, as Medusa deletes it.
  refundService: {
    retrieve: async (id: string) => {
      if (rolledBack.has(id)) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Refund with id: ${id} was not found`)
      return { id, metadata: null, payment: { refunds: [{ id }] } }
    },
  },
  logger: { error: logLine("error"), warn: logLine("warn"), info: logLine("info"), debug: logLine("debug") },
}

/** Medusa refunds rolled back after their provider call threw: Medusa deletes such a row. */
const rolledBack = new Set<string>()

beforeEach(() => {
  rolledBack.clear()
  ledger = new InMemoryLedger()
  cradle[NEXI_LEDGER_MODULE] = ledger
  logged.length = 0
})

/** What the syncs of a test asked Medusa to apply; the stand-in for Medusa records it (integration suites run Medusa's). */
const applied: Array<{ session: SessionRecord; payment: GatewayPayment }> = []

beforeEach(() => {
  applied.length = 0
})

/** The one sync of a scheme's payments, over the same cradle, ledger and options as provider(). */
function sync(
  method: ApmMethod = "PSP_B",
  apm?: Parameters<typeof options>[0],
  medusaAnswers = async (): Promise<SyncOutcome> => "unchanged",
): MobileSync {
  const logger = cradle.logger as never
  // Parsed as the provider parses its own, defaults included.
  const service = new ApmTransactions({
    options: parseNexiOptions(options(apm)),
    method,
    ledger: () => ledger,
    records: new PaymentRecords(cradle),
    providerKey: `nexi-apm-${method.toLowerCase().replaceAll("_", "-")}_nexi`,
    logger,
  })
  const medusa = {
    apply: async (session: SessionRecord, payment: GatewayPayment) => {
      applied.push({ session, payment })
      return medusaAnswers()
    },
    // Nobody completes these carts but the sync.
    checkoutCompleting: async () => false,
    // Medusa's bookkeeping of rows whose workflow died runs on a real store (the crash suite).
    finishBookkeeping: async () => "unchanged" as const,
  }
  return new MobileSync({
    service,
    ledger,
    sessions: new PaymentRecords(cradle),
    medusa,
    providerKey: service.deps.providerKey,
  })
}

function provider<T extends NexiApmProviderService>(
  Service: new (cradle: Record<string, unknown>, options: NexiOptions) => T,
  apm?: Parameters<typeof options>[0],
): T {
  return new Service(cradle, options(apm))
}

let sessionCounter = 0
function paymentInput(
  overrides: Partial<InitiatePaymentInput> & { consumerId?: string | null } = {},
): InitiatePaymentInput {
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
    expect(data).toMatchObject({
      method: "PSP_B",
      state: "PENDING",
      status: "pending",
      amount_minor: "2440",
      vat_minor: "440",
      currency: "EUR",
    })
    expect(data?.approval_url).toBe(`${sim.url}/apm/phone/${data?.transaction_id}`)
    expect(data).not.toHaveProperty(CART_CONTEXT_KEY, expect.anything())
    expect(JSON.stringify(data)).not.toContain("sim-secret")

    const transaction = (await reader.getTransaction(String(data?.transaction_id))).response?.request?.transaction
    expect(transaction?.amount).toEqual({ currencyCode: "EUR", nominalAmount: 2000, vatAmount: 440, totalAmount: 2440 })
    expect(transaction?.consumer).toEqual({ consumerId: "+4712345678", name: "Anna Rossi" })
    expect(transaction?.order?.items).toEqual([
      expect.objectContaining({
        quantity: 2,
        unitPrice: 1000,
        taxRate: 2200,
        taxAmount: 440,
        grossTotalAmount: 2440,
        netTotalAmount: 2000,
      }),
    ])
    // The start is recorded, but not its request once answered: it holds the shopper's details.
    const [start] = await ledger.writesOf(String(data?.session_id))
    expect(start).toMatchObject({ kind: "apm_payment", outcome: "executed", resend: { body: null } })
    expect(JSON.stringify(await ledger.writesOf(String(data?.session_id)))).not.toContain("+4712345678")
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
    const { data, status } = await provider(NexiApmPspBProviderService).initiatePayment(
      paymentInput({ consumerId: "+4700000000" }),
    )
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

  it("refuses a currency without hundredths and an amount of 0 before recording or sending anything", async () => {
    const service = provider(NexiApmPspBProviderService)
    await expect(service.initiatePayment(paymentInput({ currency_code: "jpy", amount: 2440 }))).rejects.toMatchObject({
      type: MedusaError.Types.INVALID_DATA,
      message:
        "Could not start the payment: the mobile payment scheme PSP_B takes amounts in hundredths, and JPY has 0 decimals (ISO 4217). Use a two-decimal currency (EUR, SEK, NOK, DKK, ...) with PSP_B, or another payment method for JPY.",
    })
    await expect(service.initiatePayment(paymentInput({ amount: 0 }))).rejects.toMatchObject({
      type: MedusaError.Types.INVALID_DATA,
      message: "Could not start the payment: amount: a payment of 0 EUR cannot be started",
    })
    expect([ledger.attempts, ledger.writes]).toEqual([[], []])
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

  it("never lets Medusa record more than the service holds: a session asking more than was paid reads as an error", async () => {
    const { service, data } = await startedPayment()
    await control(data.transaction_id, "approve")
    expect((await service.getPaymentStatus({ data })).status).toBe("captured")
    const askingMore = { ...data, amount_minor: String(BigInt(String(data.amount_minor)) + 1n) }
    const { status, data: read } = await service.getPaymentStatus({ data: askingMore })
    expect(status).toBe("error")
    expect(read?.reason).toBe("The mobile payment service holds less than the session amount.")
  })

  it("gives the scheme's reason for a rejection in the app", async () => {
    const { service, data } = await startedPayment()
    await control(data.transaction_id, "reject")
    const { status, data: read } = await service.getPaymentStatus({ data })
    expect(status).toBe("error")
    expect(read?.reason).toBe("The mobile payment scheme rejected the payment. Rejected by the consumer.")
  })

  it("syncs a session: what it read applied to Medusa, with the session's amount in minor units", async () => {
    const { data, sessionId } = await startedPayment("+4799991111")
    await sync().session(sessionId)
    expect(applied).toEqual([
      {
        session: expect.objectContaining({ id: sessionId }),
        payment: expect.objectContaining({
          status: "captured",
          currency: "EUR",
          capturedMinor: "2440",
          authorizedMinor: "2440",
        }),
      },
    ])
    expect(data.transaction_id).toBeDefined()
  })

  it("moves a paid payment to the paid watch only once Medusa took it in: a failed completion leaves it watched as pending", async () => {
    const { data, sessionId } = await startedPayment("+4799991111")
    const transactionId = String(data.transaction_id)
    const failing = sync("PSP_B", undefined, async () => {
      throw new Error("Failed to acquire lock for key cart_1")
    })
    await expect(failing.session(sessionId)).rejects.toThrow("Failed to acquire lock")
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "open" })
    await expect(sync("PSP_B", undefined, async () => "left_to_checkout").session(sessionId)).resolves.toBe(
      "left_to_checkout",
    )
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "open" })
    await sync().session(sessionId)
    expect(await ledger.findAttempt(transactionId)).toMatchObject({
      state: "paid",
      checks: 0,
      next_check_at: expect.any(Date),
    })
  })

  it("syncs a timed-out payment as failed, with the reason", async () => {
    const { sessionId } = await startedPayment("+4799999999")
    await sync().session(sessionId)
    expect(applied[0].payment.status).toBe("error")
    expect(applied[0].payment.reason).toMatch(/not approved in the mobile payment app in time/)
  })

  it("reverses a payment still pending after apm.pollTimeoutSeconds and answers it failed", async () => {
    const service = provider(NexiApmPspBProviderService, { pollTimeoutSeconds: 60 })
    const input = paymentInput()
    const { data } = await service.initiatePayment(input)
    const sessionId = String(input.data?.session_id)
    sessions.set(sessionId, { data, created_at: new Date(Date.now() - 61_000) })
    await sync("PSP_B", { pollTimeoutSeconds: 60 }).session(sessionId)
    expect(applied[0].payment.status).toBe("error")
    expect(applied[0].payment.reason).toBe("The payment was not approved in the mobile payment app within 60 seconds.")
    expect((await reader.getTransaction(String(data?.transaction_id))).state).toBe("CANCELLED")
  })

  it("answers Medusa's webhook route not_supported: the service sends no notifications", async () => {
    const result = await provider(NexiApmPspBProviderService).getWebhookActionAndData({
      data: { transactionId: 1 },
      rawData: "",
      headers: {},
    })
    expect(result.action).toBe("not_supported")
  })
})

describe("capture, refund and cancel", () => {
  it("confirms the capture of a finalized payment and refuses one that is not finalized", async () => {
    const captured = await startedPayment("+4711111111")
    expect((await captured.service.authorizePayment({ data: captured.data })).status).toBe("captured")
    await expect(captured.service.capturePayment({ data: captured.data })).resolves.toHaveProperty(
      "data.state",
      "FINALIZED",
    )

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
    const first = await service.refundPayment({
      data,
      amount: { value: "12.2", precision: 20 } as never,
      context: { idempotency_key: "ref_1" },
    })
    expect(first.data).toMatchObject({ refunded_minor: "1220", refunded_vat_minor: "220" })
    const second = await service.refundPayment({
      data: first.data!,
      amount: 12.2,
      context: { idempotency_key: "ref_2" },
    })
    expect(second.data).toMatchObject({ refunded_minor: "2440", refunded_vat_minor: "440" })
    const refunds = await Promise.all(
      ((second.data?.refund_transaction_ids ?? []) as string[]).map(
        async (id) => (await reader.getTransaction(id)).response?.request?.transaction,
      ),
    )
    expect(refunds.map((refund) => [refund?.originalReference, refund?.amount])).toEqual([
      [String(data.transaction_id), { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 220, totalAmount: 1220 }],
      [String(data.transaction_id), { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 220, totalAmount: 1220 }],
    ])
    // A retry of the same refund is not sent twice: the service would refuse a refund beyond the payment.
    await expect(
      service.refundPayment({ data: first.data!, amount: 12.2, context: { idempotency_key: "ref_2" } }),
    ).resolves.toBeDefined()
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
    expect(reversal.response?.request?.transaction).toMatchObject({
      originalReference: String(data.transaction_id),
      terminalReference: "T-1",
    })

    const rejected = await startedPayment("+4711112222")
    await rejected.service.authorizePayment({ data: rejected.data })
    await expect(rejected.service.cancelPayment({ data: rejected.data })).resolves.toHaveProperty(
      "data.status",
      "canceled",
    )
  })

  it("keeps the transaction for an update of the same amount, and replaces (reversing) it for a new amount", async () => {
    const { service, data } = await startedPayment()
    const marked = await service.updatePayment({
      data: { ...data, status: "error", reason: "x" },
      amount: 24.4,
      currency_code: "eur",
    })
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
    await expectMedusaError(
      service.cancelPayment({ data: data! }),
      MedusaError.Types.NOT_ALLOWED,
      /apm\.terminalReference/,
    )
  })
})

const REFUND_PATH = "/apm/ms/aapay/v2/transaction/refund/initializeWithIdempotency"

async function injectFault(path: string, fault: { times: number; phase: "before" | "after" }) {
  const answer = await fetch(`${sim.controlUrl}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ match: { method: "POST", path }, ...fault, action: { type: "status", status: 503 } }),
  })
  expect(answer.status).toBe(200)
}

afterEach(async () => {
  await fetch(`${sim.controlUrl}/faults`, { method: "DELETE" })
})

function refundIds(data: Record<string, unknown> | undefined): string[] {
  return (data?.refund_transaction_ids ?? []) as string[]
}

/** A payment the shopper approved, as Medusa holds it after authorization. */
async function paidPayment(consumerId = "+4711111111") {
  const started = await startedPayment(consumerId)
  if (!consumerId.endsWith("1111")) await control(started.data.transaction_id, "approve")
  const { data } = await started.service.authorizePayment({ data: started.data })
  return { ...started, data: data as Record<string, unknown>, transactionId: String(started.data.transaction_id) }
}

const PAYMENT_PATH = "/apm/ms/aapay/v2/transaction/payment/initializeWithIdempotency"

/**
 * The job's side of a start whose answer was lost, built as the job builds it, from a store
 * container holding the same options, ledger and logger as provider().
 */
function starts(providerId = "pp_nexi-apm-psp-b_nexi"): PaymentStarts {
  const registry: Record<string, unknown> = {
    [ContainerRegistrationKeys.CONFIG_MODULE]: {
      modules: { [Modules.PAYMENT]: { options: { providers: [{ id: "nexi", options: options() }] } } },
    },
    [NEXI_LEDGER_MODULE]: ledger,
    [Modules.PAYMENT]: {},
    [ContainerRegistrationKeys.LOGGER]: cradle.logger,
  }
  const container = { resolve: (name: string) => registry[name], hasRegistration: (name: string) => name in registry }
  return paymentStartsFor(container as unknown as MedusaContainer, providerId)
}

describe("a start whose answer was lost", () => {
  it("tells the shopper, and the job finds the transaction and gives back what the shopper approves on it", async () => {
    const input = paymentInput()
    const sessionId = String(input.data?.session_id)
    // The service makes the payment, but neither its answer nor the key's replay arrives.
    await injectFault(PAYMENT_PATH, { times: 2, phase: "after" })
    await expectMedusaError(
      provider(NexiApmPspBProviderService).initiatePayment(input),
      MedusaError.Types.UNEXPECTED_STATE,
      /did not answer, so it is not known whether the payment request reached the shopper's app/,
    )
    // Medusa deletes the session whose start failed: the sessions map never held it.
    const [lost] = await ledger.writesOf(sessionId)
    expect(lost).toMatchObject({
      kind: "apm_payment",
      outcome: "unknown",
      amount_minor: "2440",
      medusa_ref: sessionId,
      resend: {
        provider_identifier: "nexi-apm-psp-b_nexi",
        body: expect.stringContaining('"totalAmount":2440'),
      },
    })

    const transactionId = String(await starts().recover(lost))

    // Found, it no longer keeps the request, which holds the shopper's details.
    expect((await ledger.writesOf(sessionId))[0]).toMatchObject({
      outcome: "executed",
      gateway_operation_id: transactionId,
      resend: { provider_identifier: "nexi-apm-psp-b_nexi", body: null },
    })
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "superseded", session_id: sessionId })
    // The shopper approves the request that reached the app; the next read gives the money back.
    await control(transactionId, "approve")
    await sync().attempt(transactionId)
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "released" })
    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    // The replay named the transaction the start made: one payment at the service.
    const replays = (await ledger.writesOf(transactionId)).filter((write) => write.kind === "apm_reversal")
    expect(replays).toEqual([expect.objectContaining({ outcome: "executed", origin: "release" })])
  })

  it("reverses the transaction it finds while it still waits in the app, so it can no longer be approved", async () => {
    const input = paymentInput()
    const sessionId = String(input.data?.session_id)
    await injectFault(PAYMENT_PATH, { times: 2, phase: "after" })
    await expect(provider(NexiApmPspBProviderService).initiatePayment(input)).rejects.toThrow(/did not answer/)
    const [lost] = await ledger.writesOf(sessionId)
    const transactionId = String(await starts().recover(lost))

    await sync().attempt(transactionId)

    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    expect(await ledger.findAttempt(transactionId)).toMatchObject({
      state: "closed",
      next_check_at: null,
      note: expect.stringMatching(/reversed so it cannot be approved/),
    })
  })

  it("watches a start made whose attempt the ledger could not record, without calling the service again", async () => {
    const input = paymentInput()
    const sessionId = String(input.data?.session_id)
    const open = ledger.openAttempt.bind(ledger)
    ledger.openAttempt = async () => {
      ledger.openAttempt = open
      throw new Error("connection refused")
    }
    await expect(provider(NexiApmPspBProviderService).initiatePayment(input)).rejects.toThrow(/connection refused/)
    const later = new Date(Date.now() + 10 * 60_000)
    const [unwatched] = await ledger.startsUnwatched(new Date(0), later, 10)
    // Made, its request (the shopper's details) is no longer kept: the ledger's record finds it.
    expect(unwatched).toMatchObject({ medusa_ref: sessionId, outcome: "executed", resend: { body: null } })
    const { requests } = (await (await fetch(`${sim.controlUrl}/requests`)).json()) as { requests: unknown[] }

    const transactionId = String(await starts().recover(unwatched))

    expect(transactionId).toBe(unwatched.gateway_operation_id)
    const after = (await (await fetch(`${sim.controlUrl}/requests`)).json()) as { requests: unknown[] }
    expect(after.requests).toHaveLength(requests.length)
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "superseded", session_id: sessionId })
    expect(await ledger.startsUnwatched(new Date(0), later, 10)).toEqual([])
  })

  it("tells the shopper the start was lost when its answer was lost and the ledger cannot be read to tell more", async () => {
    await injectFault(PAYMENT_PATH, { times: 2, phase: "after" })
    const read = ledger.writesOf.bind(ledger)
    ledger.writesOf = async () => {
      ledger.writesOf = read
      throw new Error("database unavailable")
    }
    await expectMedusaError(
      provider(NexiApmPspBProviderService).initiatePayment(paymentInput()),
      MedusaError.Types.UNEXPECTED_STATE,
      /not known whether the payment request reached the shopper's app\. If one arrives, it should be declined/,
    )
  })

  it("says nothing was sent, and leaves nothing for the job to send, when the ledger cannot record the start", async () => {
    const input = paymentInput()
    const record = ledger.requestWrite.bind(ledger)
    ledger.requestWrite = async () => {
      ledger.requestWrite = record
      throw new Error("database unavailable")
    }
    await expectMedusaError(
      provider(NexiApmPspBProviderService).initiatePayment(input),
      MedusaError.Types.UNEXPECTED_STATE,
      /could not be recorded in the Nexi ledger \(database unavailable\)\. Nothing was sent/,
    )
    expect(await ledger.writesOf(String(input.data?.session_id))).toEqual([])
  })

  it("refuses, naming it, a provider that is no configured mobile payment provider", () => {
    expect(() => starts("pp_nexi_nexi")).toThrow(
      "Could not find a mobile payment whose start's answer was lost: pp_nexi_nexi is not a configured mobile payment provider.",
    )
  })

  it("gives the session back a transaction the job found first, when the shopper's retry of a lost amount change replays it", async () => {
    const { service, data, sessionId } = await startedPayment()
    // The new amount's start is made, but neither its answer nor the key's replay arrives.
    await injectFault(PAYMENT_PATH, { times: 2, phase: "after" })
    await expect(service.updatePayment({ data, amount: 30, currency_code: "eur" })).rejects.toThrow(/did not answer/)
    const lost = (await ledger.writesOf(sessionId)).find((write) => write.outcome === "unknown")
    expect(lost).toBeDefined()
    const transactionId = String(await starts().recover(lost as MoneyWrite))
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "superseded" })

    // The shopper's retry sends the same start under the same key: the service replays it.
    const retried = await service.updatePayment({ data, amount: 30, currency_code: "eur" })

    expect(retried.data?.transaction_id).toBe(transactionId)
    sessions.set(sessionId, { data: retried.data })
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "open", session_id: sessionId })
    await sync().attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("PENDING")
  })

  it("settles refused a start the service refused, and opens nothing", async () => {
    const input = paymentInput({ consumerId: "+4700000000" })
    const sessionId = String(input.data?.session_id)
    await injectFault(PAYMENT_PATH, { times: 2, phase: "before" })
    await expect(provider(NexiApmPspBProviderService).initiatePayment(input)).rejects.toThrow(/did not answer/)
    const [lost] = await ledger.writesOf(sessionId)

    expect(await starts().recover(lost)).toBeUndefined()

    expect((await ledger.writesOf(sessionId))[0]).toMatchObject({ outcome: "refused" })
  })
})

describe("the ledger: attempts", () => {
  it("records every transaction it opens, to be read after the poll interval", async () => {
    const before = Date.now()
    const { data, sessionId } = await startedPayment()
    const attempt = await ledger.findAttempt(String(data.transaction_id))
    expect(attempt).toMatchObject({
      provider_identifier: "nexi-apm-psp-b_nexi",
      session_id: sessionId,
      cart_id: "cart_1",
      amount_minor: "2440",
      currency: "EUR",
      state: "open",
    })
    expect(attempt?.next_check_at?.getTime()).toBeGreaterThanOrEqual(before + 5000)
  })

  it("records a declined transaction as closed: it can never be paid", async () => {
    const { data } = await provider(NexiApmPspBProviderService).initiatePayment(
      paymentInput({ consumerId: "+4700000000" }),
    )
    expect(await ledger.findAttempt(String(data?.transaction_id))).toMatchObject({
      state: "closed",
      next_check_at: null,
    })
  })

  it("starts a new payment when the amount goes back to an earlier one, not the replaced transaction again", async () => {
    const { service, data } = await startedPayment()
    const changed = await service.updatePayment({ data, amount: 30, currency_code: "eur" })
    const lower = await service.updatePayment({ data: changed.data!, amount: 24.4, currency_code: "eur" })
    const back = await service.updatePayment({ data: lower.data!, amount: 30, currency_code: "eur" })

    expect(back.data?.transaction_id).not.toBe(changed.data?.transaction_id)
    expect((await reader.getTransaction(String(back.data?.transaction_id))).state).toBe("PENDING")
    expect(await ledger.findAttempt(String(back.data?.transaction_id))).toMatchObject({ state: "open" })
  })

  it("supersedes the transaction a new amount replaces, and every one of a deleted session", async () => {
    const { service, data } = await startedPayment()
    const changed = await service.updatePayment({ data, amount: 30, currency_code: "eur" })
    expect(await ledger.findAttempt(String(data.transaction_id))).toMatchObject({
      state: "superseded",
      note: "Replaced by a new payment of the same session",
    })
    expect(await ledger.findAttempt(String(changed.data?.transaction_id))).toMatchObject({ state: "open" })
    await service.deletePayment({ data: changed.data! })
    expect(await ledger.findAttempt(String(changed.data?.transaction_id))).toMatchObject({
      state: "superseded",
      note: "Its payment session was deleted",
    })
  })

  it("refuses to start a payment it cannot record", async () => {
    ledger.openAttempt = async () => {
      throw new Error("connection refused")
    }
    await expectMedusaError(
      provider(NexiApmPspBProviderService).initiatePayment(paymentInput()),
      MedusaError.Types.UNEXPECTED_STATE,
      /Could not start the payment: the payment could not be recorded in the Nexi ledger \(connection refused\)/,
    )
  })

  it("moves the watch of a session's transaction on with each read", async () => {
    const { data, sessionId } = await startedPayment()
    await sync().session(sessionId)
    expect(await ledger.findAttempt(String(data.transaction_id))).toMatchObject({ state: "open", checks: 1 })
    await control(data.transaction_id, "approve")
    await sync().session(sessionId)
    expect(applied.map((change) => change.payment.status)).toEqual(["pending", "captured"])
    expect(await ledger.findAttempt(String(data.transaction_id))).toMatchObject({
      state: "paid",
      checks: 0,
      next_check_at: expect.any(Date),
    })
  })

  it("syncs a transaction its live session owns as that session's payment", async () => {
    const { data, sessionId } = await startedPayment("+4799991111")
    await sync().attempt(String(data.transaction_id))
    expect(applied).toEqual([
      { session: expect.objectContaining({ id: sessionId }), payment: expect.objectContaining({ status: "captured" }) },
    ])
    expect(await ledger.findAttempt(String(data.transaction_id))).toMatchObject({ state: "paid" })
  })

  it("releases a transaction paid after its session was deleted, with one reversal", async () => {
    const { service, data, sessionId, transactionId } = await paidPayment("+4712345678")
    // Paid just before Medusa deleted the session: nothing pending to reverse at deletion.
    sessions.delete(sessionId)
    await service.deletePayment({ data })
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")

    await expect(sync().attempt(transactionId)).resolves.toBe("unchanged")
    expect(applied).toEqual([])
    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    expect(await ledger.findAttempt(transactionId)).toMatchObject({
      state: "released",
      note: "Paid after its session was replaced or deleted; reversed",
      next_check_at: null,
    })
    const [reversal] = await ledger.writesOf(transactionId)
    expect(reversal).toMatchObject({
      kind: "apm_reversal",
      origin: "release",
      outcome: "executed",
      amount_minor: "2440",
    })
    expect(logged).toContainEqual({
      level: "error",
      line: expect.stringMatching(
        new RegExp(
          `transaction ${transactionId} \\(cart cart_1\\) was paid after its payment session was replaced or deleted`,
        ),
      ),
    })

    await sync().attempt(transactionId)
    expect(await ledger.writesOf(transactionId)).toHaveLength(1)
  })

  it("does not take a session it cannot read for a deleted one", async () => {
    const { sessionId, transactionId } = await paidPayment("+4712345678")
    await ledger.supersedeAttempts(sessionId, undefined, "Its payment session was deleted")
    const retrieve = (cradle.paymentSessionService as { retrieve: unknown }).retrieve
    ;(cradle.paymentSessionService as { retrieve: unknown }).retrieve = async () => {
      throw new Error("database unavailable")
    }
    try {
      await expect(sync().attempt(transactionId)).rejects.toThrow(/database unavailable/)
    } finally {
      ;(cradle.paymentSessionService as { retrieve: unknown }).retrieve = retrieve
    }
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")
    expect(await ledger.writesOf(transactionId)).toEqual([])
  })

  it("closes a replaced transaction that ends unpaid", async () => {
    const { data, sessionId } = await startedPayment()
    await ledger.supersedeAttempts(sessionId, undefined, "Its payment session was deleted")
    sessions.delete(sessionId)
    await control(data.transaction_id, "reject")
    await sync().attempt(String(data.transaction_id))
    expect(await ledger.findAttempt(String(data.transaction_id))).toMatchObject({
      state: "closed",
      note: expect.stringMatching(/Rejected by the consumer/),
    })
  })
})

describe("the ledger: refunds", () => {
  it("records each refund as a money write of its transaction, keyed by Medusa's refund id", async () => {
    const { service, data, transactionId } = await paidPayment()
    const refunded = await service.refundPayment({ data, amount: 10, context: { idempotency_key: "ledger_ref_1" } })
    const [write] = await ledger.writesOf(transactionId)
    expect(write).toMatchObject({
      kind: "apm_refund",
      outcome: "executed",
      amount_minor: "1000",
      medusa_ref: "ledger_ref_1",
      claimed_by: "ledger_ref_1",
      target_ref: transactionId,
      gateway_operation_id: refundIds(refunded.data)[0],
      follow_state: "none",
    })
  })

  it("makes one refund at the service when its answer is lost and Medusa retries with a new refund id", async () => {
    const { service, data, transactionId } = await paidPayment()
    // The refund is made, but neither its answer nor the answer to the key's replay arrives.
    await injectFault(REFUND_PATH, { times: 2, phase: "after" })
    await expectMedusaError(
      service.refundPayment({ data, amount: 12.2, context: { idempotency_key: "lost_ref_a" } }),
      MedusaError.Types.UNEXPECTED_STATE,
      /did not answer.*Do not try again/,
    )
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ outcome: "unknown", claimed_by: null }),
    ])

    // Medusa rolled refund A back; the merchant refunds again. While the service cannot be read, nothing is sent.
    rolledBack.add("lost_ref_a")
    await injectFault(REFUND_PATH, { times: 1, phase: "before" })
    await expectMedusaError(
      service.refundPayment({ data, amount: 12.2, context: { idempotency_key: "lost_ref_b" } }),
      MedusaError.Types.UNEXPECTED_STATE,
      /an earlier refund or reversal of this payment has an unknown outcome.*Nothing was sent/,
    )

    const retried = await service.refundPayment({ data, amount: 12.2, context: { idempotency_key: "lost_ref_b" } })
    expect(retried.data).toMatchObject({ refunded_minor: "1220", refunded_vat_minor: "220" })
    const writes = await ledger.writesOf(transactionId)
    expect(writes).toEqual([
      expect.objectContaining({ medusa_ref: "lost_ref_a", outcome: "executed", claimed_by: "lost_ref_b" }),
    ])
    expect(retried.data?.refund_transaction_ids).toEqual([writes[0].gateway_operation_id])

    // Exactly 12.20 was refunded at the service: the other 12.20 still is refundable, and no more.
    const rest = await service.refundPayment({
      data: retried.data!,
      amount: 12.2,
      context: { idempotency_key: "lost_ref_c" },
    })
    expect(rest.data).toMatchObject({ refunded_minor: "2440", refunded_vat_minor: "440" })
    await expectMedusaError(
      service.refundPayment({ data: rest.data!, amount: 0.01, context: { idempotency_key: "lost_ref_d" } }),
      MedusaError.Types.NOT_ALLOWED,
      /exceeds what remains refundable/,
    )
  })

  it("settles a lost refund from the reconciliation job, for the next refund to take over", async () => {
    const { service, data, transactionId } = await paidPayment()
    const first = await service.refundPayment({ data, amount: 5, context: { idempotency_key: "job_ref_1" } })
    await injectFault(REFUND_PATH, { times: 2, phase: "after" })
    await expect(
      service.refundPayment({ data: first.data!, amount: 7.2, context: { idempotency_key: "job_ref_2" } }),
    ).rejects.toThrow(/did not answer/)
    rolledBack.add("job_ref_2")

    await sync().attempt(transactionId)
    const [, lost] = await ledger.writesOf(transactionId)
    expect(lost).toMatchObject({ medusa_ref: "job_ref_2", outcome: "executed", claimed_by: null })

    const next = await service.refundPayment({
      data: first.data!,
      amount: 7.2,
      context: { idempotency_key: "job_ref_3" },
    })
    expect(next.data).toMatchObject({ refunded_minor: "1220", refunded_vat_minor: "220" })
    expect(refundIds(next.data).at(-1)).toBe(lost.gateway_operation_id)
    expect(await ledger.writesOf(transactionId)).toHaveLength(2)
  })

  it("warns when the job finds a lost refund made that no Medusa refund records, which the next refund of that amount takes over", async () => {
    const { service, data, transactionId } = await paidPayment()
    await injectFault(REFUND_PATH, { times: 2, phase: "after" })
    await expect(
      service.refundPayment({ data, amount: 7.2, context: { idempotency_key: "unrecorded_ref" } }),
    ).rejects.toThrow(/did not answer/)
    rolledBack.add("unrecorded_ref")

    await sync().attempt(transactionId)
    const [lost] = await ledger.writesOf(transactionId)
    expect(lost).toMatchObject({ outcome: "executed", claimed_by: null })
    const warnings = () => logged.filter((entry) => entry.level === "warn").map((entry) => entry.line)
    expect(warnings()).toEqual([
      `nexi: PSP_B refund ${lost.gateway_operation_id} of 7.20 EUR on transaction ${transactionId} was made by the service after Medusa had given up on it (its answer was lost, and Medusa's refund unrecorded_ref is gone): Medusa does not show this refund. Refunding the same amount in Medusa records it without refunding the shopper again.`,
    ])

    const next = await service.refundPayment({ data, amount: 7.2, context: { idempotency_key: "recording_ref" } })
    expect(refundIds(next.data)).toEqual([lost.gateway_operation_id])
    expect(await ledger.writesOf(transactionId)).toEqual([expect.objectContaining({ claimed_by: "recording_ref" })])
    expect(warnings()).toHaveLength(1)
  })

  it("takes over a refund made whose Medusa refund Medusa deleted afterwards, instead of refunding again", async () => {
    const { service, data, transactionId } = await paidPayment()
    await service.refundPayment({ data, amount: 5, context: { idempotency_key: "ref_deleted_a" } })
    // As Medusa does when its own update fails after the provider answered.
    rolledBack.add("ref_deleted_a")

    const next = await service.refundPayment({ data, amount: 5, context: { idempotency_key: "ref_deleted_b" } })

    const writes = await ledger.writesOf(transactionId)
    expect(writes).toEqual([
      expect.objectContaining({ medusa_ref: "ref_deleted_a", outcome: "executed", claimed_by: "ref_deleted_b" }),
    ])
    expect(refundIds(next.data)).toEqual([writes[0].gateway_operation_id])
  })

  it("matches a lost refund whose Medusa refund stands (the process was killed) to that refund: the next one is sent, not taken over", async () => {
    const { service, data, transactionId } = await paidPayment()
    // Refund A is made, but neither its answer nor its key's replay arrives; the store is then
    // killed, so Medusa never deletes refund A's row.
    await injectFault(REFUND_PATH, { times: 2, phase: "after" })
    await expect(
      service.refundPayment({ data, amount: 5, context: { idempotency_key: "kept_ref_a" } }),
    ).rejects.toThrow(/did not answer/)

    const next = await service.refundPayment({ data, amount: 5, context: { idempotency_key: "kept_ref_b" } })
    const writes = await ledger.writesOf(transactionId)
    expect(writes).toEqual([
      expect.objectContaining({ medusa_ref: "kept_ref_a", outcome: "executed", claimed_by: "kept_ref_a" }),
      expect.objectContaining({ medusa_ref: "kept_ref_b", outcome: "executed", claimed_by: "kept_ref_b" }),
    ])
    expect(refundIds(next.data)).toEqual([writes[1].gateway_operation_id])
    expect(writes[1].gateway_operation_id).not.toBe(writes[0].gateway_operation_id)
  })

  it("lets a retry of the same refund hold its write after the job settled it, so no later refund counts it again", async () => {
    const { service, data, transactionId } = await paidPayment()
    await injectFault(REFUND_PATH, { times: 2, phase: "after" })
    await expect(service.refundPayment({ data, amount: 10, context: { idempotency_key: "same_ref" } })).rejects.toThrow(
      /did not answer/,
    )
    await sync().attempt(transactionId)

    const again = await service.refundPayment({ data, amount: 10, context: { idempotency_key: "same_ref" } })
    expect(again.data).toMatchObject({ refunded_minor: "1000" })
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ outcome: "executed", claimed_by: "same_ref" }),
    ])
    const later = await service.refundPayment({
      data: again.data!,
      amount: 10,
      context: { idempotency_key: "later_ref" },
    })
    expect(await ledger.writesOf(transactionId)).toHaveLength(2)
    expect(refundIds(later.data)).toHaveLength(2)
  })

  it("leaves a refund still on its way to its own call, and sends no other refund meanwhile", async () => {
    const { service, data, transactionId } = await paidPayment()
    const key = "0b9f2a52-0000-5000-8000-000000000002"
    await ledger.requestWrite({
      kind: "apm_refund",
      idempotency_key: key,
      gateway_ref: transactionId,
      amount_minor: "500",
      currency: "EUR",
    })

    await sync().attempt(transactionId)
    await expectMedusaError(
      service.refundPayment({ data, amount: 5, context: { idempotency_key: "meanwhile_ref" } }),
      MedusaError.Types.NOT_ALLOWED,
      /another refund or reversal of this payment is being sent right now/,
    )
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ idempotency_key: key, outcome: "requested" }),
    ])
  })

  it("never reads a key the service knows for another body as a refund not made", async () => {
    const { service, data, transactionId } = await paidPayment()
    const key = "0b9f2a52-0000-5000-8000-000000000001"
    const body = {
      merchantId: "sim-merchant",
      method: "PSP_B" as const,
      purchaseAmount: { currencyCode: "EUR", nominalAmount: 100, vatAmount: 0, totalAmount: 100 },
      consumer: { consumerId: "+4711111111", name: "Anna Rossi" },
      originalReference: transactionId,
    }
    await reader.initializeWithIdempotency("refund", body, key)
    await ledger.requestWrite({
      kind: "apm_refund",
      idempotency_key: key,
      gateway_ref: transactionId,
      amount_minor: "200",
      currency: "EUR",
    })
    await ledger.updateWrite(key, { outcome: "unknown" })

    await expectMedusaError(
      service.refundPayment({ data, amount: 1, context: { idempotency_key: "conflict_ref" } }),
      MedusaError.Types.UNEXPECTED_STATE,
      /unknown outcome.*Nothing was sent/,
    )
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ idempotency_key: key, outcome: "unknown" }),
    ])
  })

  it("follows a refund the scheme accepted until it settles, and reports one it rejects", async () => {
    // Refunds of this consumer's payments are held "initialized" until the simulator is told.
    const { service, data, transactionId } = await paidPayment("+4712343333")
    const first = await service.refundPayment({ data, amount: 10, context: { idempotency_key: "held_ref_1" } })
    const second = await service.refundPayment({
      data: first.data!,
      amount: 5,
      context: { idempotency_key: "held_ref_2" },
    })
    const [settledId, rejectedId] = refundIds(second.data)
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ follow_state: "following" }),
      expect.objectContaining({ follow_state: "following" }),
    ])

    await sync().attempt(transactionId)
    expect((await ledger.writesOf(transactionId)).map((write) => write.follow_state)).toEqual([
      "following",
      "following",
    ])

    await control(settledId, "approve")
    await control(rejectedId, "reject")
    await sync().attempt(transactionId)
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ gateway_operation_id: settledId, follow_state: "done" }),
      expect.objectContaining({
        gateway_operation_id: rejectedId,
        follow_state: "rejected",
        message: "The payer's account cannot receive refunds",
      }),
    ])
    expect(logged.filter((entry) => entry.level === "error").map((entry) => entry.line)).toEqual([
      `nexi: PSP_B refund ${rejectedId} of 5.00 EUR on transaction ${transactionId} was rejected by the scheme: The payer's account cannot receive refunds; Medusa still counts it as refunded — refund the shopper another way`,
    ])
  })
})

const REVERSAL_PATH = "/apm/ms/aapay/v2/transaction/reversal/initializeWithIdempotency"
const TIMEOUT = { pollTimeoutSeconds: 60 }

/**
 * A payment still pending after apm.pollTimeoutSeconds whose reversal never reached the
 * service, nor its key's replay: the plugin gave up on it (outcome unknown) and the session
 * stays pending, so the shopper can still approve it.
 */
async function timedOutWithLostReversal() {
  const service = provider(NexiApmPspBProviderService, TIMEOUT)
  const input = paymentInput()
  const { data } = await service.initiatePayment(input)
  const sessionId = String(input.data?.session_id)
  const transactionId = String(data?.transaction_id)
  sessions.set(sessionId, { data, created_at: new Date(Date.now() - 61_000) })
  await injectFault(REVERSAL_PATH, { times: 2, phase: "before" })
  await sync("PSP_B", TIMEOUT).session(sessionId)
  expect(applied.at(-1)?.payment.status).toBe("pending")
  expect(await ledger.writesOf(transactionId)).toEqual([
    expect.objectContaining({ kind: "apm_reversal", origin: "medusa", outcome: "unknown" }),
  ])
  return { service, data: data as Record<string, unknown>, sessionId, transactionId }
}

/** The shopper approves in the app, and the storefront's next poll completes the cart: Medusa records the capture. */
async function paidAfterAll(sessionId: string, transactionId: string) {
  await control(transactionId, "approve")
  await sync("PSP_B", TIMEOUT).session(sessionId)
  expect(applied.at(-1)?.payment.status).toBe("captured")
}

function expectReversalNotMade(writes: Awaited<ReturnType<InMemoryLedger["writesOf"]>>) {
  expect(writes.filter((write) => write.kind === "apm_reversal" && write.origin === "medusa")).toEqual([
    expect.objectContaining({
      outcome: "refused",
      gateway_operation_id: null,
      message: expect.stringMatching(/never made.*paid \(FINALIZED\).*Not sent again/),
    }),
  ])
}

describe("the ledger: a reversal Medusa gave up on", () => {
  it("is never made by the job once the shopper has paid: the payment Medusa records stands", async () => {
    const { sessionId, transactionId } = await timedOutWithLostReversal()
    await paidAfterAll(sessionId, transactionId)

    await sync("PSP_B", TIMEOUT).attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")
    expectReversalNotMade(await ledger.writesOf(transactionId))
    expect(logged).toContainEqual({
      level: "warn",
      line: expect.stringMatching(
        new RegExp(
          `PSP_B reversal of 24\\.40 EUR of transaction ${transactionId}\\b.*never made.*paid.*not sent again`,
        ),
      ),
    })

    // Settled: the next run sends nothing either.
    await sync("PSP_B", TIMEOUT).attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")
  })

  it("is never made by the job after a process cut off mid-call left it requested", async () => {
    const service = provider(NexiApmPspBProviderService)
    const input = paymentInput()
    const { data } = await service.initiatePayment(input)
    const sessionId = String(input.data?.session_id)
    const transactionId = String(data?.transaction_id)
    sessions.set(sessionId, { data })
    // Recorded before it was sent, then the process was killed: the reversal never left.
    await ledger.requestWrite({
      kind: "apm_reversal",
      origin: "medusa",
      idempotency_key: idempotencyUuid(`${transactionId}:reversal`),
      gateway_ref: transactionId,
      target_ref: transactionId,
      amount_minor: "2440",
      currency: "EUR",
      medusa_ref: sessionId,
    })
    const cutOff = ledger.writes.find((write) => write.gateway_ref === transactionId)!
    cutOff.updated_at = new Date(Date.now() - 3 * 60_000)
    await paidAfterAll(sessionId, transactionId)

    await sync("PSP_B", TIMEOUT).attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")
    expectReversalNotMade(await ledger.writesOf(transactionId))
  })

  it("stays unsettled, with nothing sent, while the payment it reverses cannot be read", async () => {
    const { sessionId, transactionId } = await timedOutWithLostReversal()
    await paidAfterAll(sessionId, transactionId)
    const answer = await fetch(`${sim.controlUrl}/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        match: { method: "GET", path: `/apm/ms/aapay/v2/transaction/${transactionId}` },
        times: 1,
        action: { type: "status", status: 503 },
      }),
    })
    expect(answer.status).toBe(200)

    await expect(sync("PSP_B", TIMEOUT).attempt(transactionId)).rejects.toThrow(
      /unknown outcome, and the payment it reverses cannot be read now.*Nothing was sent/,
    )
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")
    expect(await ledger.writesOf(transactionId)).toEqual([expect.objectContaining({ outcome: "unknown" })])

    await sync("PSP_B", TIMEOUT).attempt(transactionId)
    expectReversalNotMade(await ledger.writesOf(transactionId))
  })

  it("is never made by the next refund, which settles it first and is then made itself", async () => {
    const { service, sessionId, transactionId } = await timedOutWithLostReversal()
    await paidAfterAll(sessionId, transactionId)
    const { data } = await service.authorizePayment({ data: sessions.get(sessionId)?.data as Record<string, unknown> })

    const refunded = await service.refundPayment({
      data: data!,
      amount: 10,
      context: { idempotency_key: "after_lost_reversal_ref" },
    })
    expect(refunded.data).toMatchObject({ refunded_minor: "1000" })
    expect((await reader.getTransaction(transactionId)).state).toBe("FINALIZED")
    expectReversalNotMade(await ledger.writesOf(transactionId))
  })

  it("is still sent while the payment waits for the shopper: that is what was asked", async () => {
    const { transactionId } = await timedOutWithLostReversal()

    await sync("PSP_B", TIMEOUT).attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ kind: "apm_reversal", outcome: "executed", gateway_operation_id: expect.any(String) }),
    ])
    expect(applied.at(-1)?.payment.status).toBe("canceled")
  })

  it("is still made when Medusa cancels the paid payment itself, before or after the job settled it", async () => {
    const before = await timedOutWithLostReversal()
    await paidAfterAll(before.sessionId, before.transactionId)
    const cancelled = await before.service.cancelPayment({ data: before.data })
    expect(cancelled.data).toMatchObject({ status: "canceled", state: "CANCELLED" })
    expect((await reader.getTransaction(before.transactionId)).state).toBe("CANCELLED")
    expect(await ledger.writesOf(before.transactionId)).toEqual([
      expect.objectContaining({ outcome: "executed", gateway_operation_id: cancelled.data?.reversal_transaction_id }),
    ])

    const after = await timedOutWithLostReversal()
    await paidAfterAll(after.sessionId, after.transactionId)
    await sync("PSP_B", TIMEOUT).attempt(after.transactionId)
    expectReversalNotMade(await ledger.writesOf(after.transactionId))
    const cancelledAfter = await after.service.cancelPayment({ data: after.data })
    expect((await reader.getTransaction(after.transactionId)).state).toBe("CANCELLED")
    expect(await ledger.writesOf(after.transactionId)).toEqual([
      expect.objectContaining({
        outcome: "executed",
        gateway_operation_id: cancelledAfter.data?.reversal_transaction_id,
      }),
    ])
  })

  it("tells staff to cancel again when a cancel's reversal cannot be learnt: the second cancel reverses once", async () => {
    const { service, data } = await startedPayment()
    const transactionId = String(data.transaction_id)
    await control(transactionId, "approve")
    await injectFault(REVERSAL_PATH, { times: 2, phase: "before" })

    await expect(service.cancelPayment({ data })).rejects.toThrow(
      /the outcome of the reversal of 24\.40 EUR is unknown: the gateway could not be read\. Send the same request again/,
    )
    const cancelled = await service.cancelPayment({ data })

    expect(cancelled.data).toMatchObject({ status: "canceled", state: "CANCELLED" })
    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ kind: "apm_reversal", outcome: "executed" }),
    ])
  })

  it("leaves a replaced session's payment, approved after its reversal was lost, to the release", async () => {
    const { service, data, sessionId } = await startedPayment()
    const transactionId = String(data.transaction_id)
    await injectFault(REVERSAL_PATH, { times: 2, phase: "before" })
    const changed = await service.updatePayment({ data, amount: 30, currency_code: "eur" })
    sessions.set(sessionId, { data: changed.data })
    await control(transactionId, "approve")

    await sync().attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    expect(await ledger.findAttempt(transactionId)).toMatchObject({ state: "released" })
    const writes = await ledger.writesOf(transactionId)
    expectReversalNotMade(writes)
    expect(writes.filter((write) => write.origin === "release")).toEqual([
      expect.objectContaining({ kind: "apm_reversal", outcome: "executed" }),
    ])
  })

  it("still sends a release whose answer was lost: that money is no session's", async () => {
    const { service, data, sessionId, transactionId } = await paidPayment("+4712345678")
    sessions.delete(sessionId)
    await service.deletePayment({ data })
    await injectFault(REVERSAL_PATH, { times: 2, phase: "before" })
    await expect(sync().attempt(transactionId)).rejects.toThrow(/did not answer/)
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ origin: "release", outcome: "unknown" }),
    ])

    await sync().attempt(transactionId)
    expect((await reader.getTransaction(transactionId)).state).toBe("CANCELLED")
    expect(await ledger.writesOf(transactionId)).toEqual([
      expect.objectContaining({ origin: "release", outcome: "executed" }),
    ])
  })
})
