/**
 * The sender with the by-order-id recovery against the simulator over HTTP, with its fault
 * injection standing in for lost answers: the card is charged once whatever happens to the
 * answers, the ledger in memory. (MOTO through Medusa is covered by the admin-routes integration suite.)
 */
import { randomUUID } from "node:crypto"
import { MedusaError } from "@medusajs/framework/utils"
import { InMemoryLedger } from "../../../test-support/in-memory-ledger"
import { createGatewayClient, type HttpGatewayClient } from "../../gateway/http-gateway-client"
import { newOrderId } from "../../gateway/order-id"
import type { MotoRequest } from "../../gateway/schemas"
import { APPROVED_CARD, SIM_API_KEY, SimulatorHarness } from "../../http/__tests__/support/simulator"
import { InvalidRequestError } from "../../http/errors"
import { ByOrderId, operationIdOf } from "../card/card-writes"
import { sendOnce } from "../send-once"

let harness: SimulatorHarness
let gateway: HttpGatewayClient

beforeAll(async () => {
  harness = await SimulatorHarness.start()
})
beforeEach(async () => {
  await harness.reset()
  gateway = createGatewayClient({
    apiKey: SIM_API_KEY,
    environment: harness.sim.gatewayUrl,
    timeoutMs: 300,
    retries: 1,
    retryBaseDelayMs: 1,
  })
})
afterEach(() => gateway.close())
afterAll(() => harness.close())

function motoRequest(pan = APPROVED_CARD.pan): MotoRequest {
  return {
    order: { orderId: newOrderId("T"), amount: "1999", currency: "EUR" },
    card: { pan, expiryDate: "1230" },
    captureType: "EXPLICIT",
  }
}

const motoPath = () => harness.gatewayPath("/orders/moto")
/** The charge's operations at the gateway once the sender is done. */
async function send(request: MotoRequest) {
  const recover = new ByOrderId(gateway, request.order.orderId)
  const charge = async () => operationIdOf((await gateway.createMotoPayment(request, randomUUID())).operation)
  const { orderId, amount, currency } = request.order
  const write = {
    kind: "moto" as const,
    idempotency_key: randomUUID(),
    gateway_ref: orderId,
    amount_minor: amount,
    currency,
  }
  const words = { action: "take the MOTO payment", label: "MOTO payment" }
  await sendOnce({ ledger: new InMemoryLedger(), write, ...words, send: charge, recover })
  return gateway.getOrder(request.order.orderId)
}

describe("the sender, finding a request again by its order id", () => {
  it("answers the gateway's operation when all goes well", async () => {
    const charged = await send(motoRequest())
    expect(charged.operations.map((operation) => operation.operationResult)).toEqual(["AUTHORIZED"])
  })

  it("reads the charge back when the answer is lost and the repeat is refused: one operation", async () => {
    await harness.fault({
      match: { method: "POST", path: motoPath() },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    const request = motoRequest()
    const charged = await send(request)
    expect(charged.orderStatus.authorizedAmount).toBe("1999")
    expect(charged.operations).toHaveLength(1)
    expect((await harness.requestsTo("POST", motoPath())).map((sent) => sent.status)).toEqual([0, 400])
  })

  it("reads the charge back when no attempt got an answer", async () => {
    await harness.fault({ match: { method: "POST", path: motoPath() }, phase: "after", action: { type: "hang" } })
    const charged = await send(motoRequest())
    expect(charged.operations).toHaveLength(1)
  })

  it("says nothing was made after a lost request that never reached the gateway, and passes a refusal on untouched", async () => {
    await harness.fault({ match: { method: "POST", path: motoPath() }, phase: "before", action: { type: "hang" } })
    const lost = await send(motoRequest()).catch((error: unknown) => error)
    expect(lost).toBeInstanceOf(MedusaError)
    expect((lost as Error).message).toMatch(/its own record shows the MOTO payment was not made\. Nothing was done/)
    await harness.reset()
    await expect(send(motoRequest("4999340261977288"))).rejects.toBeInstanceOf(InvalidRequestError)
  })

  it("finds a repeated request the gateway refuses, because the first one charged, as made: one charge", async () => {
    const request = motoRequest()
    await send(request)
    const again = await send(request)
    expect(again.operations).toHaveLength(1)
    expect((await harness.requestsTo("POST", motoPath())).map((sent) => sent.status)).toEqual([200, 400])
  })
})
