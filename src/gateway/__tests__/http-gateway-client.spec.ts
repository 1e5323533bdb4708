/**
 * HttpGatewayClient against the project's simulator over real HTTP: every endpoint of
 * docs/contract/gateway.md, every error status it lists, and the retry guarantees.
 */
import { randomUUID } from "node:crypto"
import { failure } from "../../http/__tests__/support/expectations"
import { APPROVED_CARD, DECLINED_CARD, SIM_API_KEY, SimulatorHarness } from "../../http/__tests__/support/simulator"
import {
  AuthenticationError,
  GatewayUnavailableError,
  InvalidRequestError,
  NotFoundError,
  OutcomeUnknownError,
  UnexpectedResponseError,
} from "../../http/errors"
import { type GatewayClientOptions, HttpGatewayClient } from "../http-gateway-client"
import { newOrderId } from "../order-id"
import type { HppRequest, Order } from "../schemas"

let harness: SimulatorHarness
const clients: HttpGatewayClient[] = []

function client(options: Partial<GatewayClientOptions> = {}): HttpGatewayClient {
  const created = new HttpGatewayClient({
    apiKey: SIM_API_KEY,
    environment: harness.sim.gatewayUrl,
    timeoutMs: 5_000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    ...options,
  })
  clients.push(created)
  return created
}

function order(amount = "1999", extra: Partial<Order> = {}): Order {
  return { orderId: newOrderId("T"), amount, currency: "EUR", ...extra }
}

function hppRequest(amount = "1999", extra: Partial<Order> = {}): HppRequest {
  return {
    order: order(amount, extra),
    paymentSession: {
      actionType: "PAY",
      amount,
      language: "ita",
      captureType: "EXPLICIT",
      resultUrl: "https://shop.example/result",
      cancelUrl: "https://shop.example/cancel",
    },
  }
}

/** An order paid on the hosted page with explicit capture: one AUTHORIZED authorization. */
async function authorizedOrder(
  gateway: HttpGatewayClient,
  amount = "1999",
): Promise<{ orderId: string; authorizationId: string }> {
  const request = hppRequest(amount)
  await gateway.createHostedOrder(request)
  await harness.payHostedOrder(request.order.orderId)
  const details = await gateway.getOrder(request.order.orderId)
  const authorization = details.operations.find(
    (operation) => operation.operationType === "AUTHORIZATION" && operation.operationResult === "AUTHORIZED",
  )
  return { orderId: request.order.orderId, authorizationId: authorization!.operationId! }
}

/** An order paid and captured: one EXECUTED capture. */
async function capturedOrder(gateway: HttpGatewayClient, amount = "1999") {
  const { orderId, authorizationId } = await authorizedOrder(gateway, amount)
  const { operationId: captureId } = await gateway.capture(authorizationId, { amount, currency: "EUR" }, randomUUID())
  return { orderId, authorizationId, captureId }
}

const GEN500 = { errors: [{ code: "GEN500", description: "internal error, try later" }] }

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

describe("POST /orders/hpp", () => {
  it("answers the hosted page and the security token, with a fresh Correlation-Id and no idempotency key", async () => {
    const gateway = client()
    const answer = await gateway.createHostedOrder(hppRequest())
    const second = await gateway.createHostedOrder(hppRequest())
    expect(answer.hostedPage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(answer.securityToken).not.toBe("")
    expect(second.securityToken).not.toBe(answer.securityToken)
    const requests = await harness.requestsTo("POST", harness.gatewayPath("/orders/hpp"))
    expect(requests).toHaveLength(2)
    expect(requests[0].correlationId).toMatch(/^[0-9a-f-]{36}$/)
    expect(requests[1].correlationId).not.toBe(requests[0].correlationId)
    expect(requests[0].idempotencyKey).toBeUndefined()
  })

  it("400: PS0007 when the session amount is above the order amount", async () => {
    const request = hppRequest("500")
    request.paymentSession.amount = "600"
    const error = await failure(client().createHostedOrder(request))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.status).toBe(400)
    expect(error.hasCode("PS0007")).toBe(true)
    expect(error.message).toMatch(/^Nexi gateway POST \/orders\/hpp answered 400 \(request refused\): PS0007 /)
  })
})

describe("POST /orders/moto", () => {
  it("pays with card data (implicit capture) and answers the operation", async () => {
    const { operation } = await client().createMotoPayment({
      order: order("500"),
      card: APPROVED_CARD,
      captureType: "IMPLICIT",
    })
    expect(operation).toMatchObject({ operationType: "CAPTURE", operationResult: "EXECUTED", operationAmount: "500" })
  })

  it("reports a declined card as a DECLINED operation", async () => {
    const { operation } = await client().createMotoPayment({
      order: order("500"),
      card: DECLINED_CARD,
      captureType: "IMPLICIT",
    })
    expect(operation.operationResult).toBe("DECLINED")
  })

  it("400 on an invalid card number", async () => {
    const error = await failure(
      client().createMotoPayment({ order: order(), card: { pan: "123", expiryDate: "1230" } }),
    )
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.details.length).toBeGreaterThan(0)
  })
})

describe("POST /orders/card_verification", () => {
  it("verifies a card", async () => {
    const { operation } = await client().verifyCard({ order: order("0"), card: APPROVED_CARD })
    expect(operation).toMatchObject({ operationType: "AUTHORIZATION", operationResult: "EXECUTED" })
  })

  it("400 on an expiry that is not mmyy", async () => {
    const error = await failure(
      client().verifyCard({ order: order("0"), card: { pan: APPROVED_CARD.pan, expiryDate: "2030-12" } }),
    )
    expect(error).toBeInstanceOf(InvalidRequestError)
  })
})

describe("GET /orders and GET /orders/{orderId}", () => {
  it("finds an order with its operations", async () => {
    const gateway = client()
    const { orderId } = await authorizedOrder(gateway)
    const details = await gateway.getOrder(orderId)
    expect(details.orderStatus).toMatchObject({
      order: { orderId, amount: "1999", currency: "EUR" },
      authorizedAmount: "1999",
    })
    expect(details.operations.some((operation) => operation.operationResult === "AUTHORIZED")).toBe(true)
    expect(details.paymentLinks).toEqual([])
  })

  it("404 for an unknown order", async () => {
    const error = await failure(client().getOrder("NOSUCHORDER"))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.message).toMatch(/^Nexi gateway GET \/orders\/\{orderId\} answered 404 \(not found\)/)
  })

  it("lists orders filtered by customField and bounded by maxRecords", async () => {
    const gateway = client()
    for (const customField of ["cart-a", "cart-a", "cart-b"])
      await gateway.createHostedOrder(hppRequest("100", { customField }))
    const filtered = await gateway.listOrders({ customField: "cart-a" })
    expect(filtered.orders).toHaveLength(2)
    expect(filtered.orders.every((status) => status.order.customField === "cart-a")).toBe(true)
    expect((await gateway.listOrders({ maxRecords: 1 })).orders).toHaveLength(1)
    expect((await gateway.listOrders()).orders).toHaveLength(3)
  })

  it("lists orders within a time window", async () => {
    const gateway = client()
    await gateway.createHostedOrder(hppRequest())
    const future = new Date(Date.now() + 3_600_000).toISOString()
    expect((await gateway.listOrders({ fromTime: future })).orders).toHaveLength(0)
    expect((await gateway.listOrders({ toTime: future })).orders).toHaveLength(1)
  })
})

describe("GET /operations and GET /operations/{operationId}", () => {
  it("finds one operation", async () => {
    const gateway = client()
    const { captureId } = await capturedOrder(gateway)
    expect(await gateway.getOperation(captureId)).toMatchObject({ operationId: captureId, operationType: "CAPTURE" })
  })

  it("404 for an unknown operation", async () => {
    expect(await failure(client().getOperation("999"))).toBeInstanceOf(NotFoundError)
  })

  it("lists operations filtered by type, channel and maxRecords", async () => {
    const gateway = client()
    await capturedOrder(gateway)
    await capturedOrder(gateway)
    const captures = await gateway.listOperations({ operationType: "CAPTURE" })
    expect(captures.operations).toHaveLength(2)
    expect(captures.operations.every((operation) => operation.operationType === "CAPTURE")).toBe(true)
    const backOffice = await gateway.listOperations({ channel: "BACKOFFICE", maxRecords: 1 })
    expect(backOffice.operations).toHaveLength(1)
    expect(backOffice.operations[0].channel).toBe("BACKOFFICE")
  })
})

describe("POST /operations/{operationId}/captures", () => {
  it("captures an authorization, sending the idempotency key", async () => {
    const gateway = client()
    const { orderId, authorizationId } = await authorizedOrder(gateway)
    const key = randomUUID()
    const answer = await gateway.capture(
      authorizationId,
      { amount: "1999", currency: "EUR", description: "order shipped" },
      key,
    )
    expect(answer.operationId).not.toBe("")
    const captures = (await gateway.getOrder(orderId)).operations.filter(
      (operation) => operation.operationType === "CAPTURE",
    )
    expect(captures).toHaveLength(1)
    expect(captures[0].operationId).toBe(answer.operationId)
    const [request] = await harness.requestsTo("POST", harness.gatewayPath("/operations/*/captures"))
    expect(request.idempotencyKey).toBe(key)
  })

  it("400 with the gateway's code for a second capture of one authorization", async () => {
    const gateway = client()
    const { authorizationId } = await capturedOrder(gateway)
    const error = await failure(gateway.capture(authorizationId, { amount: "1", currency: "EUR" }, randomUUID()))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.hasCode("PS0023")).toBe(true)
  })

  it("404 for an unknown operation", async () => {
    const error = await failure(client().capture("999", { amount: "1", currency: "EUR" }, randomUUID()))
    expect(error).toBeInstanceOf(NotFoundError)
  })
})

describe("POST /operations/{operationId}/refunds", () => {
  it("refunds part of a capture, sending the idempotency key", async () => {
    const gateway = client()
    const { orderId, captureId } = await capturedOrder(gateway)
    const key = randomUUID()
    const answer = await gateway.refund(captureId, { amount: "999", currency: "EUR" }, key)
    const refund = await gateway.getOperation(answer.operationId)
    expect(refund).toMatchObject({ orderId, operationType: "REFUND", operationAmount: "999" })
    const [request] = await harness.requestsTo("POST", harness.gatewayPath("/operations/*/refunds"))
    expect(request.idempotencyKey).toBe(key)
  })

  it("400 PS0029 for a refund above the captured amount", async () => {
    const gateway = client()
    const { captureId } = await capturedOrder(gateway)
    const error = await failure(gateway.refund(captureId, { amount: "5000", currency: "EUR" }, randomUUID()))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.hasCode("PS0029")).toBe(true)
  })

  it("404 for an unknown operation", async () => {
    expect(await failure(client().refund("999", { amount: "1", currency: "EUR" }, randomUUID()))).toBeInstanceOf(
      NotFoundError,
    )
  })
})

describe("POST /operations/{operationId}/cancels", () => {
  it("cancels a capture, without an idempotency key", async () => {
    const gateway = client()
    const { orderId, captureId } = await capturedOrder(gateway)
    const answer = await gateway.cancelCapture(captureId, { description: "customer changed their mind" })
    const cancel = await gateway.getOperation(answer.operationId)
    expect(cancel).toMatchObject({ orderId, operationType: "CANCEL" })
    const [request] = await harness.requestsTo("POST", harness.gatewayPath("/operations/*/cancels"))
    expect(request.idempotencyKey).toBeUndefined()
  })

  it("400 when the operation is not a capture", async () => {
    const gateway = client()
    const { authorizationId } = await authorizedOrder(gateway)
    expect(await failure(gateway.cancelCapture(authorizationId))).toBeInstanceOf(InvalidRequestError)
  })

  it("404 for an unknown operation", async () => {
    expect(await failure(client().cancelCapture("999"))).toBeInstanceOf(NotFoundError)
  })
})

describe("GET /payment_methods", () => {
  it("lists the merchant's methods", async () => {
    const { paymentMethods } = await client().listPaymentMethods()
    expect(paymentMethods.map((method) => method.circuit)).toEqual(expect.arrayContaining(["VISA", "MC"]))
    expect(paymentMethods.find((method) => method.circuit === "VISA")?.methodType).toBe("CARD")
  })
})

/** One call per endpoint, for the statuses every endpoint can answer. */
const EVERY_ENDPOINT: [string, string, (gateway: HttpGatewayClient) => Promise<unknown>][] = [
  ["POST", "/orders/hpp", (gateway) => gateway.createHostedOrder(hppRequest())],
  ["POST", "/orders/moto", (gateway) => gateway.createMotoPayment({ order: order(), card: APPROVED_CARD })],
  ["POST", "/orders/card_verification", (gateway) => gateway.verifyCard({ order: order("0"), card: APPROVED_CARD })],
  ["GET", "/orders", (gateway) => gateway.listOrders()],
  ["GET", "/orders/*", (gateway) => gateway.getOrder("ANYORDER")],
  ["GET", "/operations", (gateway) => gateway.listOperations()],
  ["GET", "/operations/*", (gateway) => gateway.getOperation("1")],
  ["POST", "/operations/*/captures", (gateway) => gateway.capture("1", { amount: "1", currency: "EUR" }, randomUUID())],
  ["POST", "/operations/*/refunds", (gateway) => gateway.refund("1", { amount: "1", currency: "EUR" }, randomUUID())],
  ["POST", "/operations/*/cancels", (gateway) => gateway.cancelCapture("1")],
  ["GET", "/payment_methods", (gateway) => gateway.listPaymentMethods()],
]

describe.each(EVERY_ENDPOINT)("%s %s", (method, path, call) => {
  it("401 is an AuthenticationError naming the endpoint and the API key", async () => {
    const error = await failure(call(client({ apiKey: "not-the-key" })))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.status).toBe(401)
    expect(error.message).toContain(`Nexi gateway ${method} `)
    expect(error.message).toContain("check the API key")
  })

  it("500 is a GatewayUnavailableError carrying the gateway's code", async () => {
    await harness.fault({
      match: { method, path: harness.gatewayPath(path) },
      action: { type: "status", status: 500, body: GEN500 },
    })
    const error = await failure(call(client()))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.status).toBe(500)
    expect(error.hasCode("GEN500")).toBe(true)
    expect(error.message).toContain("GEN500 internal error, try later")
  })
})

describe("answers that break the contract", () => {
  it("names the field path of a wrongly typed member, and keeps unknown extra fields", async () => {
    const gateway = client()
    const orderStatus = { order: { orderId: "X1", amount: "19.99", currency: "EUR" } }
    await harness.fault({
      match: { method: "GET", path: harness.gatewayPath("/orders/*") },
      times: 1,
      action: { type: "status", status: 200, body: { orderStatus, operations: [] } },
    })
    const error = await failure(gateway.getOrder("X1"))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toContain("orderStatus.order.amount: must be a string of digits")
    expect(error.details[0].code).toBe("orderStatus.order.amount")

    await harness.fault({
      match: { method: "GET", path: harness.gatewayPath("/orders/*") },
      times: 1,
      action: {
        type: "status",
        status: 200,
        body: {
          orderStatus: { ...orderStatus, order: { ...orderStatus.order, amount: "1999" } },
          newTopLevel: { a: 1 },
        },
      },
    })
    const details = await gateway.getOrder("X1")
    expect(details).toMatchObject({ newTopLevel: { a: 1 }, operations: [], paymentLinks: [] })
  })

  it("names a missing required field", async () => {
    await harness.fault({
      match: { method: "POST", path: harness.gatewayPath("/orders/hpp") },
      phase: "after",
      action: { type: "status", status: 200, body: { hostedPage: "https://pay.example/x" } },
    })
    const error = await failure(client().createHostedOrder(hppRequest()))
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toContain("securityToken: is missing (expected string)")
  })
})

describe("retries", () => {
  it("a capture executed before the answer hangs is retried with the same key and executed once", async () => {
    const gateway = client({ timeoutMs: 300 })
    const { orderId, authorizationId } = await authorizedOrder(gateway)
    const capturesPath = harness.gatewayPath("/operations/*/captures")
    await harness.fault({
      match: { method: "POST", path: capturesPath },
      times: 1,
      phase: "after",
      action: { type: "hang" },
    })
    const key = randomUUID()
    const answer = await gateway.capture(authorizationId, { amount: "1999", currency: "EUR" }, key)

    const captures = (await gateway.getOrder(orderId)).operations.filter(
      (operation) => operation.operationType === "CAPTURE",
    )
    expect(captures).toHaveLength(1)
    expect(captures[0].operationId).toBe(answer.operationId)
    const requests = await harness.requestsTo("POST", capturesPath)
    expect(requests).toHaveLength(2)
    expect(requests.map((request) => request.idempotencyKey)).toEqual([key, key])
    expect(requests[0].correlationId).not.toBe(requests[1].correlationId)
  })

  it("a capture executed before the connection is reset is retried with the same key and executed once", async () => {
    const gateway = client()
    const { orderId, authorizationId } = await authorizedOrder(gateway)
    const capturesPath = harness.gatewayPath("/operations/*/captures")
    await harness.fault({
      match: { method: "POST", path: capturesPath },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    const key = randomUUID()
    await gateway.capture(authorizationId, { amount: "1999", currency: "EUR" }, key)

    const captures = (await gateway.getOrder(orderId)).operations.filter(
      (operation) => operation.operationType === "CAPTURE",
    )
    expect(captures).toHaveLength(1)
    const requests = await harness.requestsTo("POST", capturesPath)
    expect(requests.map((request) => request.idempotencyKey)).toEqual([key, key])
  })

  it("a refund that never gets an answer is OutcomeUnknownError after all attempts, all with one key", async () => {
    const gateway = client({ timeoutMs: 200, retries: 2 })
    const { captureId } = await capturedOrder(gateway)
    const refundsPath = harness.gatewayPath("/operations/*/refunds")
    await harness.fault({ match: { method: "POST", path: refundsPath }, phase: "after", action: { type: "hang" } })
    const key = randomUUID()
    const error = await failure(gateway.refund(captureId, { amount: "1", currency: "EUR" }, key))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toContain("after 3 attempts")
    const requests = await harness.requestsTo("POST", refundsPath)
    expect(requests.map((request) => request.idempotencyKey)).toEqual([key, key, key])
  })

  it("a MOTO payment executed before the connection is reset is repeated with its key and orderId, and charged once", async () => {
    const gateway = client()
    const motoPath = harness.gatewayPath("/orders/moto")
    await harness.fault({
      match: { method: "POST", path: motoPath },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    const request = { order: order("700"), card: APPROVED_CARD, captureType: "EXPLICIT" as const }
    const key = randomUUID()
    // The repeat reuses the orderId, which the gateway refuses once it has seen it: the caller
    // then reads the order (GET /orders/{orderId}) to find the one payment.
    const error = await failure(gateway.createMotoPayment(request, key))
    expect(error).toBeInstanceOf(InvalidRequestError)
    const requests = await harness.requestsTo("POST", motoPath)
    expect(requests.map((sent) => sent.idempotencyKey)).toEqual([key, key])
    const { operations } = await gateway.getOrder(request.order.orderId)
    expect(operations).toHaveLength(1)
    expect(operations[0]).toMatchObject({
      operationType: "AUTHORIZATION",
      operationResult: "AUTHORIZED",
      operationAmount: "700",
    })
  })

  it("refuses a blank idempotency key on a MOTO payment before sending anything", async () => {
    const gateway = client()
    await expect(gateway.createMotoPayment({ order: order(), card: APPROVED_CARD }, " ")).rejects.toThrow(
      /idempotencyKey must not be empty/,
    )
    expect(await harness.requestsTo("POST", harness.gatewayPath("/orders/moto"))).toHaveLength(0)
  })

  it("a hosted order that times out is not retried: OutcomeUnknownError after one request", async () => {
    const gateway = client({ timeoutMs: 300 })
    await harness.fault({
      match: { method: "POST", path: harness.gatewayPath("/orders/hpp") },
      times: 1,
      action: { type: "hang" },
    })
    const error = await failure(gateway.createHostedOrder(hppRequest()))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toMatch(
      /^Nexi gateway POST \/orders\/hpp: no answer \(timeout after 300 ms\) after 1 attempt/,
    )
    expect(await harness.requestsTo("POST", harness.gatewayPath("/orders/hpp"))).toHaveLength(1)
  })

  it("a cancel whose connection is reset is not retried (it has no idempotency key)", async () => {
    const gateway = client()
    const { captureId } = await capturedOrder(gateway)
    const cancelsPath = harness.gatewayPath("/operations/*/cancels")
    await harness.fault({ match: { method: "POST", path: cancelsPath }, times: 1, action: { type: "reset" } })
    expect(await failure(gateway.cancelCapture(captureId))).toBeInstanceOf(OutcomeUnknownError)
    expect(await harness.requestsTo("POST", cancelsPath)).toHaveLength(1)
  })

  it("a read answered 5xx is retried and then succeeds", async () => {
    const gateway = client()
    const { orderId } = await authorizedOrder(gateway)
    const orderPath = harness.gatewayPath(`/orders/${orderId}`)
    await harness.fault({
      match: { method: "GET", path: orderPath },
      times: 1,
      action: { type: "status", status: 503, body: GEN500 },
    })
    const details = await gateway.getOrder(orderId)
    expect(details.orderStatus.order.orderId).toBe(orderId)
    const reads = await harness.requestsTo("GET", orderPath)
    expect(reads.slice(-2).map((request) => request.status)).toEqual([503, 200])
  })

  it("a 4xx is not retried", async () => {
    const gateway = client()
    const { authorizationId } = await capturedOrder(gateway)
    const capturesPath = harness.gatewayPath("/operations/*/captures")
    const before = (await harness.requestsTo("POST", capturesPath)).length
    await failure(gateway.capture(authorizationId, { amount: "1", currency: "EUR" }, randomUUID()))
    expect(await harness.requestsTo("POST", capturesPath)).toHaveLength(before + 1)
  })
})
