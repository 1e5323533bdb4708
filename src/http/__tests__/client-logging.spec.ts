/**
 * Every call of both clients, logged at debug level into one capture: the log must say
 * something about each call and must contain none of the secrets that crossed the wire.
 */
import { randomUUID } from "node:crypto"
import { HttpApmClient } from "../../apm/http-apm-client"
import type { InitializeRequest } from "../../apm/schemas"
import { HttpGatewayClient } from "../../gateway/http-gateway-client"
import { newOrderId } from "../../gateway/order-id"
import type { HppRequest } from "../../gateway/schemas"
import { capturingLogger } from "./support/expectations"
import {
  APPROVED_CARD,
  DECLINED_CARD,
  SIM_API_KEY,
  SIM_CONSUMER_KEY,
  SIM_CONSUMER_SECRET,
  SimulatorHarness,
} from "./support/simulator"

const WRONG_API_KEY = "wrong-key-0b6f2c1e-6c8e-4d7e-9d3a"
const WRONG_SECRET = "wrong-secret-7d1f"

let harness: SimulatorHarness

beforeAll(async () => {
  harness = await SimulatorHarness.start()
})

afterAll(async () => {
  await harness.close()
})

/** A value as a whole token: CVV "663" must not match inside an operation id like "96630". */
function appearsAsToken(text: string, value: string): boolean {
  return new RegExp(`(?<![0-9A-Za-z])${value.replace(/[^0-9A-Za-z]/g, "\\$&")}(?![0-9A-Za-z])`).test(text)
}

it("logs every call of both clients without any secret", async () => {
  const { lines, logger } = capturingLogger()
  const tuning = { logger, timeoutMs: 5_000, retryBaseDelayMs: 1 }
  const gateway = new HttpGatewayClient({ apiKey: SIM_API_KEY, environment: harness.sim.gatewayUrl, ...tuning })
  const wrongGateway = new HttpGatewayClient({ apiKey: WRONG_API_KEY, environment: harness.sim.gatewayUrl, ...tuning })
  const apm = new HttpApmClient({
    consumerKey: SIM_CONSUMER_KEY,
    consumerSecret: SIM_CONSUMER_SECRET,
    environment: harness.sim.apmUrl,
    ...tuning,
  })
  const wrongApm = new HttpApmClient({
    consumerKey: SIM_CONSUMER_KEY,
    consumerSecret: WRONG_SECRET,
    environment: harness.sim.apmUrl,
    ...tuning,
  })

  const loggedPerCall: Record<string, number> = {}
  async function logged<T>(name: string, call: () => Promise<T>): Promise<T | undefined> {
    const before = lines.length
    try {
      return await call()
    } catch {
      return undefined
    } finally {
      loggedPerCall[name] = lines.slice(before).filter((line) => line.startsWith("debug ")).length
    }
  }

  const hpp: HppRequest = {
    order: { orderId: newOrderId("LOG"), amount: "1999", currency: "EUR", description: `note ${APPROVED_CARD.pan}` },
    paymentSession: { amount: "1999", language: "ita", captureType: "EXPLICIT", resultUrl: "https://shop.example/r" },
  }
  const hosted = await logged("hpp", () => gateway.createHostedOrder(hpp))
  await harness.payHostedOrder(hpp.order.orderId)
  const moto = (captureType: "IMPLICIT" | "EXPLICIT", card = APPROVED_CARD) => ({
    order: { orderId: newOrderId("LOG"), amount: "500", currency: "EUR" },
    card,
    captureType,
  })
  await logged("moto", () => gateway.createMotoPayment(moto("IMPLICIT")))
  await logged("moto declined", () => gateway.createMotoPayment(moto("IMPLICIT", DECLINED_CARD)))
  await logged("moto refused", () =>
    gateway.createMotoPayment(moto("IMPLICIT", { ...DECLINED_CARD, expiryDate: "0120" })),
  )
  await logged("card verification", () =>
    gateway.verifyCard({ order: { orderId: newOrderId("LOG"), amount: "0", currency: "EUR" }, card: APPROVED_CARD }),
  )
  const order = await logged("get order", () => gateway.getOrder(hpp.order.orderId))
  const authorizationId = order!.operations.find((operation) => operation.operationResult === "AUTHORIZED")!
    .operationId!
  await logged("list orders", () => gateway.listOrders({ maxRecords: 5 }))
  await logged("list operations", () => gateway.listOperations({ operationType: "AUTHORIZATION" }))
  await logged("get operation", () => gateway.getOperation(authorizationId))
  const captured = await logged("capture", () =>
    gateway.capture(authorizationId, { amount: "1999", currency: "EUR" }, randomUUID()),
  )
  await logged("refund", () => gateway.refund(captured!.operationId, { amount: "100", currency: "EUR" }, randomUUID()))
  await logged("cancel", () => gateway.cancelCapture(captured!.operationId, { description: "refused: has refunds" }))
  await logged("payment methods", () => gateway.listPaymentMethods())
  await logged("gateway 401", () => wrongGateway.listPaymentMethods())

  const payment: InitializeRequest = {
    merchantId: "MERCHANT1",
    method: "PSP_B",
    purchaseAmount: { currencyCode: "EUR", vatAmount: 0, nominalAmount: 1000, totalAmount: 1000 },
    consumer: { consumerId: "+393330005678", name: "Mario Rossi" },
  }
  const envelope = await logged("apm initialize", () => apm.initialize("payment", payment))
  await logged("apm initialize with idempotency", () => apm.initializeWithIdempotency("payment", payment, randomUUID()))
  await logged("apm status", () =>
    apm.getTransaction(envelope!.response!.request!.transaction!.transactionId!, envelope!.nextLink),
  )
  await logged("apm 201", () =>
    apm.initialize("payment", { ...payment, consumer: { consumerId: "+393330000000", name: "No" } }),
  )
  await logged("apm 401", () => wrongApm.initialize("payment", payment))

  for (const client of [gateway, wrongGateway, apm, wrongApm]) client.close()

  for (const [call, count] of Object.entries(loggedPerCall)) {
    // A request line and an answer line at least.
    expect([call, count >= 2]).toEqual([call, true])
  }
  const log = lines.join("\n")
  expect(hosted?.securityToken).toBeTruthy()
  const secrets = [
    SIM_API_KEY,
    WRONG_API_KEY,
    SIM_CONSUMER_SECRET,
    WRONG_SECRET,
    Buffer.from(`${SIM_CONSUMER_KEY}:${SIM_CONSUMER_SECRET}`).toString("base64"),
    Buffer.from(`${SIM_CONSUMER_KEY}:${WRONG_SECRET}`).toString("base64"),
    APPROVED_CARD.pan,
    DECLINED_CARD.pan,
    hosted!.securityToken,
  ]
  for (const secret of secrets) expect([secret, log.includes(secret)]).toEqual([secret, false])
  for (const token of [APPROVED_CARD.cvv, DECLINED_CARD.cvv, APPROVED_CARD.expiryDate, "0120"]) {
    expect([token, appearsAsToken(log, token)]).toEqual([token, false])
  }
  // The redaction left the useful parts readable.
  expect(log).toContain("[REDACTED]")
  expect(log).toContain(hpp.order.orderId)
  expect(log).toContain("[PAN ****7289]")
})
