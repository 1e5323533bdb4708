/**
 * HttpApmClient against the project's simulator over real HTTP: initialize (plain and with
 * idempotency) for payments, refunds and reversals, the status operation, every status the
 * contract lists (201/400/401/404/500), and retries.
 */
import { randomUUID } from "node:crypto"
import { capturingLogger, failure } from "../../http/__tests__/support/expectations"
import { SIM_CONSUMER_KEY, SIM_CONSUMER_SECRET, SimulatorHarness } from "../../http/__tests__/support/simulator"
import {
  AuthenticationError,
  GatewayUnavailableError,
  InvalidRequestError,
  NotFoundError,
  OutcomeUnknownError,
} from "../../http/errors"
import { TransactionRejectedError } from "../errors"
import { type ApmClientOptions, HttpApmClient } from "../http-apm-client"
import type { InitializeRequest } from "../schemas"

let harness: SimulatorHarness
const clients: HttpApmClient[] = []

function client(options: Partial<ApmClientOptions> = {}): HttpApmClient {
  const created = new HttpApmClient({
    consumerKey: SIM_CONSUMER_KEY,
    consumerSecret: SIM_CONSUMER_SECRET,
    environment: harness.sim.apmUrl,
    timeoutMs: 5_000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    ...options,
  })
  clients.push(created)
  return created
}

/** The simulator decides by the consumerId's last four digits: 0000 rejects at initialize, 1111 approves. */
function payment(consumerId = "+393330005678", totalAmount = 1000): InitializeRequest {
  return {
    merchantId: "MERCHANT1",
    method: "PSP_B",
    purchaseAmount: { currencyCode: "EUR", vatAmount: 0, nominalAmount: totalAmount, totalAmount },
    consumer: { consumerId, name: "Mario Rossi" },
    ecr2Naa: { reference: "cart-1" },
  }
}

function transactionIdOf(envelope: {
  response?: { request?: { transaction?: { transactionId?: number | string } } }
}): number {
  return Number(envelope.response!.request!.transaction!.transactionId)
}

const initializePath = (type: string) => `/ms/aapay/v2/transaction/${type}/initialize`
const GEN500 = {
  valid: false,
  error: { message: "runtime exception", componsiteFault: { faults: [{ explanationText: "GEN500" }] } },
}

beforeAll(async () => {
  harness = await SimulatorHarness.start()
})

beforeEach(async () => {
  await harness.reset()
})

afterEach(() => {
  for (const created of clients.splice(0)) created.close()
})

afterAll(async () => {
  await harness.close()
})

describe("POST /ms/aapay/v2/transaction/{type}/initialize", () => {
  it("202: a pending payment with a link to its status", async () => {
    const envelope = await client().initialize("payment", payment())
    expect(envelope.valid).toBe(true)
    expect(envelope.response?.responseCode).toBe(-3)
    expect(envelope.response?.request?.transaction?.state).toBe("PENDING")
    expect(envelope.nextLink?.uri).toContain(`/ms/aapay/v2/transaction/${transactionIdOf(envelope)}`)
    const [request] = await harness.requestsTo("POST", harness.apmPath(initializePath("payment")))
    expect(request.status).toBe(202)
    expect(request.idempotencyKey).toBeUndefined()
  })

  it("201: created but rejected is a TransactionRejectedError carrying the envelope and the fault texts", async () => {
    const error = await failure(client().initialize("payment", payment("+393331230000")))
    expect(error).toBeInstanceOf(TransactionRejectedError)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.status).toBe(201)
    const rejected = error as TransactionRejectedError
    expect(rejected.envelope.valid).toBe(false)
    expect(rejected.envelope.error?.componsiteFault?.faults?.length).toBeGreaterThan(0)
    expect(rejected.details.length).toBeGreaterThan(0)
    expect(rejected.message).toMatch(/answered 201 \(transaction created but rejected\): /)
    expect(rejected.message).toContain(rejected.envelope.error!.componsiteFault!.faults![0].explanationText!)
  })

  it("400: the faults become the error's details", async () => {
    const invalid = { ...payment(), consumer: undefined } as unknown as InitializeRequest
    const error = await failure(client().initialize("payment", invalid))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).not.toBeInstanceOf(TransactionRejectedError)
    expect(error.status).toBe(400)
    expect(error.details.length).toBeGreaterThan(0)
    expect(error.message).toMatch(
      /^Nexi alternative-payment service POST \/ms\/aapay\/v2\/transaction\/\{type\}\/initialize answered 400/,
    )
  })

  it("401: wrong consumer credentials are an AuthenticationError", async () => {
    const error = await failure(client({ consumerSecret: "wrong" }).initialize("payment", payment()))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).toContain("check the consumer key and secret")
  })

  it("500 is a GatewayUnavailableError, not retried without an idempotency key", async () => {
    const path = harness.apmPath(initializePath("payment"))
    await harness.fault({ match: { method: "POST", path }, action: { type: "status", status: 500, body: GEN500 } })
    const error = await failure(client().initialize("payment", payment()))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.hasCode("GEN500")).toBe(true)
    expect(await harness.requestsTo("POST", path)).toHaveLength(1)
  })

  it("a timeout is OutcomeUnknownError after one request", async () => {
    const path = harness.apmPath(initializePath("payment"))
    await harness.fault({ match: { method: "POST", path }, times: 1, phase: "after", action: { type: "hang" } })
    const error = await failure(client({ timeoutMs: 300 }).initialize("payment", payment()))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(await harness.requestsTo("POST", path)).toHaveLength(1)
  })

  it("refunds and reverses a payment", async () => {
    const apm = client()
    const paid = await apm.initialize("payment", payment("+393331231111"))
    const paymentId = transactionIdOf(paid)
    expect((await apm.getTransaction(paymentId)).response?.request?.transaction?.state).toBe("FINALIZED")

    const refund = await apm.initialize("refund", {
      ...payment("+393331231111", 400),
      originalReference: String(paymentId),
    })
    expect(refund.valid).toBe(true)

    const pending = await apm.initialize("payment", payment())
    const pendingId = transactionIdOf(pending)
    const reversal = await apm.initialize("reversal", {
      ...payment(),
      originalReference: String(pendingId),
      terminalReference: "TERM-1",
    })
    expect(reversal.valid).toBe(true)
    expect((await apm.getTransaction(pendingId)).response?.request?.transaction?.state).toBe("CANCELLED")
  })

  it("400 for a refund above what was paid", async () => {
    const apm = client()
    const paymentId = transactionIdOf(await apm.initialize("payment", payment("+393331231111", 1000)))
    await apm.getTransaction(paymentId)
    const error = await failure(
      apm.initialize("refund", { ...payment("+393331231111", 5000), originalReference: String(paymentId) }),
    )
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.details.some((detail) => detail.code.includes("refundable"))).toBe(true)
  })
})

describe("POST /ms/aapay/v2/transaction/{type}/initializeWithIdempotency", () => {
  const path = () => harness.apmPath("/ms/aapay/v2/transaction/payment/initializeWithIdempotency")

  it("sends the key in Idempotency-Key; a replay answers the same transaction", async () => {
    const apm = client()
    const key = randomUUID()
    const first = await apm.initializeWithIdempotency("payment", payment(), key)
    const replay = await apm.initializeWithIdempotency("payment", payment(), key)
    expect(transactionIdOf(replay)).toBe(transactionIdOf(first))
    const requests = await harness.requestsTo("POST", path())
    expect(requests.map((request) => request.idempotencyKey)).toEqual([key, key])
  })

  it("201 is a TransactionRejectedError", async () => {
    const error = await failure(client().initializeWithIdempotency("payment", payment("+393331230000"), randomUUID()))
    expect(error).toBeInstanceOf(TransactionRejectedError)
  })

  it("400 on a key reused for another request", async () => {
    const apm = client()
    const key = randomUUID()
    await apm.initializeWithIdempotency("payment", payment(), key)
    const error = await failure(apm.initializeWithIdempotency("payment", payment("+393330005678", 2000), key))
    expect(error).toBeInstanceOf(InvalidRequestError)
  })

  it("401 with wrong credentials", async () => {
    const error = await failure(
      client({ consumerKey: "nobody" }).initializeWithIdempotency("payment", payment(), randomUUID()),
    )
    expect(error).toBeInstanceOf(AuthenticationError)
  })

  it("a reset after execution is retried with the same key and creates one transaction", async () => {
    const apm = client()
    await harness.fault({
      match: { method: "POST", path: path() },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    const key = randomUUID()
    const envelope = await apm.initializeWithIdempotency("payment", payment(), key)
    const requests = await harness.requestsTo("POST", path())
    expect(requests.map((request) => request.idempotencyKey)).toEqual([key, key])
    // The simulator numbers transactions from 7000000001 after a reset: the retry answered
    // the one transaction the first attempt created, and no second one exists.
    expect(transactionIdOf(envelope)).toBe(7000000001)
    expect(await failure(apm.getTransaction(7000000002))).toBeInstanceOf(NotFoundError)
  })

  it("500 is retried, then GatewayUnavailableError", async () => {
    await harness.fault({
      match: { method: "POST", path: path() },
      action: { type: "status", status: 500, body: GEN500 },
    })
    const error = await failure(client({ retries: 2 }).initializeWithIdempotency("payment", payment(), randomUUID()))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(await harness.requestsTo("POST", path())).toHaveLength(3)
  })
})

describe("the status operation", () => {
  it("follows nextLink.uri when the initialize answer has one", async () => {
    const apm = client()
    const envelope = await apm.initialize("payment", payment())
    const transactionId = transactionIdOf(envelope)
    await harness.decideApm(transactionId, "approve")
    const status = await apm.getTransaction(transactionId, envelope.nextLink)
    expect(status.valid).toBe(true)
    expect(status.response?.request?.transaction?.state).toBe("FINALIZED")
    const reads = await harness.requestsTo("GET", new URL(envelope.nextLink!.uri!).pathname)
    expect(reads).toHaveLength(1)
    expect(reads[0].status).toBe(200)
  })

  it("reads GET /ms/aapay/v2/transaction/{transactionId} without a link", async () => {
    const apm = client()
    const transactionId = transactionIdOf(await apm.initialize("payment", payment()))
    await harness.decideApm(transactionId, "reject")
    const status = await apm.getTransaction(transactionId)
    expect(status.response?.request?.transaction?.state).toBe("REJECTED")
    expect(await harness.requestsTo("GET", harness.apmPath(`/ms/aapay/v2/transaction/${transactionId}`))).toHaveLength(
      1,
    )
  })

  it("ignores a nextLink.uri on another origin, so the credentials stay home", async () => {
    const apm = client()
    const transactionId = transactionIdOf(await apm.initialize("payment", payment()))
    const status = await apm.getTransaction(transactionId, { uri: `http://elsewhere.invalid/steal/${transactionId}` })
    expect(status.valid).toBe(true)
    expect(await harness.requestsTo("GET", harness.apmPath(`/ms/aapay/v2/transaction/${transactionId}`))).toHaveLength(
      1,
    )
  })

  it("404 for an unknown transaction", async () => {
    const error = await failure(client().getTransaction(123456))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toMatch(/GET \/ms\/aapay\/v2\/transaction\/\{transactionId\} answered 404/)
  })

  it("a 404 warns with the URL it read, below the base URL's own path", async () => {
    const { lines, logger } = capturingLogger()
    await failure(client({ logger }).getTransaction(123456))
    const warnings = lines.filter((line) => line.startsWith("warn "))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(
      `GET ${harness.sim.apmUrl}/ms/aapay/v2/transaction/123456 answered 404 (transaction not found)`,
    )
    expect(harness.sim.apmUrl).toMatch(/\/apm$/)
  })

  it("a 404 the caller expects (the doctor's probe) is its answer: nothing is logged above debug", async () => {
    const { lines, logger } = capturingLogger()
    const error = await failure(client({ logger }).getTransaction(123456, undefined, { notFoundExpected: true }))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(lines.filter((line) => !line.startsWith("debug "))).toEqual([])
  })

  it("401 with wrong credentials", async () => {
    const transactionId = transactionIdOf(await client().initialize("payment", payment()))
    expect(await failure(client({ consumerSecret: "wrong" }).getTransaction(transactionId))).toBeInstanceOf(
      AuthenticationError,
    )
  })

  it("5xx is retried, then answers", async () => {
    const apm = client()
    const transactionId = transactionIdOf(await apm.initialize("payment", payment()))
    const path = harness.apmPath(`/ms/aapay/v2/transaction/${transactionId}`)
    await harness.fault({
      match: { method: "GET", path },
      times: 1,
      action: { type: "status", status: 500, body: GEN500 },
    })
    expect((await apm.getTransaction(transactionId)).valid).toBe(true)
    expect((await harness.requestsTo("GET", path)).map((request) => request.status)).toEqual([500, 200])
  })

  it("500 after all retries is a GatewayUnavailableError", async () => {
    const apm = client({ retries: 1 })
    const transactionId = transactionIdOf(await apm.initialize("payment", payment()))
    const path = harness.apmPath(`/ms/aapay/v2/transaction/${transactionId}`)
    await harness.fault({ match: { method: "GET", path }, action: { type: "status", status: 500, body: GEN500 } })
    expect(await failure(apm.getTransaction(transactionId))).toBeInstanceOf(GatewayUnavailableError)
    expect(await harness.requestsTo("GET", path)).toHaveLength(2)
  })
})

describe("configuration", () => {
  it("requires credentials and a base URL", () => {
    expect(() => new HttpApmClient({ consumerKey: "", consumerSecret: "s", environment: "http://x" })).toThrow(
      /consumerKey/,
    )
    expect(() => new HttpApmClient({ consumerKey: "k", consumerSecret: "s", environment: "" })).toThrow(
      /^environment: /,
    )
    expect(() => new HttpApmClient({ consumerKey: "k", consumerSecret: "s", environment: "sandbox" })).toThrow(
      /^environment: /,
    )
  })
})
