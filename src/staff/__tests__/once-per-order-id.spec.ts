/**
 * sendOncePerOrderId against the simulator over HTTP, with its fault injection standing in
 * for lost answers: the card is charged once whatever happens to the answers.
 */
import { randomUUID } from "node:crypto"
import { createGatewayClient, type HttpGatewayClient } from "../../gateway/http-gateway-client"
import { newOrderId } from "../../gateway/order-id"
import type { MotoRequest } from "../../gateway/schemas"
import { APPROVED_CARD, SIM_API_KEY, SimulatorHarness } from "../../http/__tests__/support/simulator"
import { InvalidRequestError, OutcomeUnknownError } from "../../http/errors"
import { sendOncePerOrderId } from "../once-per-order-id"

let harness: SimulatorHarness
let gateway: HttpGatewayClient

beforeAll(async () => {
  harness = await SimulatorHarness.start()
})
beforeEach(async () => {
  await harness.reset()
  gateway = createGatewayClient({ apiKey: SIM_API_KEY, environment: harness.sim.gatewayUrl, timeoutMs: 300, retries: 1, retryBaseDelayMs: 1 })
})
afterEach(() => gateway.close())
afterAll(() => harness.close())

function motoRequest(pan = APPROVED_CARD.pan): MotoRequest {
  return { order: { orderId: newOrderId("T"), amount: "1999", currency: "EUR" }, card: { pan, expiryDate: "1230" }, captureType: "EXPLICIT" }
}

const motoPath = () => harness.gatewayPath("/orders/moto")
const send = (request: MotoRequest, readFirst = false) =>
  sendOncePerOrderId(gateway, request.order, () => gateway.createMotoPayment(request, randomUUID()), { readFirst })

describe("sendOncePerOrderId", () => {
  it("answers the gateway's operation when all goes well", async () => {
    const charged = await send(motoRequest())
    expect(charged.operations.map((operation) => operation.operationResult)).toEqual(["AUTHORIZED"])
  })

  it("reads the charge back when the answer is lost and the repeat is refused: one operation", async () => {
    await harness.fault({ match: { method: "POST", path: motoPath() }, times: 1, phase: "after", action: { type: "reset" } })
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

  it("passes on a lost request that never reached the gateway, and a refusal, untouched", async () => {
    await harness.fault({ match: { method: "POST", path: motoPath() }, phase: "before", action: { type: "hang" } })
    await expect(send(motoRequest())).rejects.toBeInstanceOf(OutcomeUnknownError)
    await harness.reset()
    await expect(send(motoRequest("4999340261977288"))).rejects.toBeInstanceOf(InvalidRequestError)
  })

  it("sends nothing for a resumed attempt the gateway already charged", async () => {
    const request = motoRequest()
    await send(request)
    const again = await send(request, true)
    expect(again.operations).toHaveLength(1)
    expect(await harness.requestsTo("POST", motoPath())).toHaveLength(1)
  })
})
