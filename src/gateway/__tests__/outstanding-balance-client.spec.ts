/**
 * The client methods for collecting an outstanding balance (issue #26), against the
 * simulator over real HTTP: merchant-initiated charges of a contract, payment links, and the
 * contracts endpoints, with their typed errors and the Idempotency-Key guarantees.
 */
import { randomUUID } from "node:crypto"
import { failure } from "../../http/__tests__/support/expectations"
import { APPROVED_CARD, SIM_API_KEY, SimulatorHarness } from "../../http/__tests__/support/simulator"
import { InvalidRequestError, NotFoundError, OutcomeUnknownError } from "../../http/errors"
import { HttpGatewayClient } from "../http-gateway-client"
import { newOrderId } from "../order-id"
import type { MitRequest, PayByLinkRequest } from "../schemas"

let harness: SimulatorHarness
let gateway: HttpGatewayClient

beforeAll(async () => {
  harness = await SimulatorHarness.start()
  gateway = new HttpGatewayClient({
    apiKey: SIM_API_KEY,
    environment: harness.sim.gatewayUrl,
    timeoutMs: 2_000,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
  })
})
afterAll(async () => {
  gateway.close()
  await harness.close()
})
beforeEach(() => harness.reset())

const CUSTOMER = "cus_alice"

/** A contract saved the shopper's way: a hosted CONTRACT_CREATION payment. */
async function saveContract(contractId: string, contractType: "CIT" | "MIT_UNSCHEDULED" = "MIT_UNSCHEDULED") {
  const orderId = newOrderId("T")
  await gateway.createHostedOrder({
    order: { orderId, amount: "100", currency: "EUR", customerId: CUSTOMER },
    paymentSession: {
      amount: "100",
      language: "ita",
      recurrence: { action: "CONTRACT_CREATION", contractId, contractType },
    },
  })
  await harness.payHostedOrder(orderId)
}

function mitRequest(contractId: string, amount = "1250"): MitRequest {
  return { order: { orderId: newOrderId("T"), amount, currency: "EUR", customerId: CUSTOMER }, contractId }
}

function linkRequest(amount = "3000"): PayByLinkRequest {
  return {
    order: { orderId: newOrderId("T"), amount, currency: "EUR" },
    paymentSession: { actionType: "PAY", amount, language: "ita" },
    expirationDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  }
}

describe("chargeContract (POST /orders/mit)", () => {
  it("charges an MIT contract and answers the operation, sent with the caller's Idempotency-Key", async () => {
    await saveContract("C1")
    const key = randomUUID()
    const { operation } = await gateway.chargeContract(mitRequest("C1"), key)
    expect(operation).toMatchObject({
      channel: "BACKOFFICE",
      operationType: "AUTHORIZATION",
      operationResult: "AUTHORIZED",
      operationAmount: "1250",
    })
    const sent = await harness.requestsTo("POST", harness.gatewayPath("/orders/mit"))
    expect(sent.map((request) => request.idempotencyKey)).toEqual([key])
  })

  it("a CIT contract is InvalidRequestError naming the refusal", async () => {
    await saveContract("C1", "CIT")
    const error = await failure(gateway.chargeContract(mitRequest("C1"), randomUUID()))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.details).toEqual([{ code: "SIM1005", description: expect.stringContaining("is CIT") }])
  })

  it("retries a lost answer under the same key and charges once", async () => {
    await saveContract("C1")
    await harness.fault({
      match: { path: harness.gatewayPath("/orders/mit") },
      times: 1,
      phase: "after",
      action: { type: "reset" },
    })
    const request = mitRequest("C1")
    const { operation } = await gateway.chargeContract(request, randomUUID())
    const sent = await harness.requestsTo("POST", harness.gatewayPath("/orders/mit"))
    expect(sent).toHaveLength(2)
    expect(new Set(sent.map((attempt) => attempt.idempotencyKey)).size).toBe(1)
    const details = await gateway.getOrder(request.order.orderId)
    expect(details.operations.map((recorded) => recorded.operationId)).toEqual([operation.operationId])
  })

  it("a key reused for another charge is InvalidRequestError PS0025, and a blank key is refused before sending", async () => {
    await saveContract("C1")
    const key = randomUUID()
    await gateway.chargeContract(mitRequest("C1"), key)
    const error = await failure(gateway.chargeContract(mitRequest("C1"), key))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.details[0].code).toBe("PS0025")
    await expect(gateway.chargeContract(mitRequest("C1"), " ")).rejects.toThrow(/idempotencyKey must not be empty/)
  })

  it("no answer after every attempt is OutcomeUnknownError", async () => {
    await saveContract("C1")
    await harness.fault({ match: { path: harness.gatewayPath("/orders/mit") }, action: { type: "reset" } })
    expect(await failure(gateway.chargeContract(mitRequest("C1"), randomUUID()))).toBeInstanceOf(OutcomeUnknownError)
  })
})

describe("payment links", () => {
  it("createPaymentLink answers the link and token; a paid link shows in getOrder with the paying operation", async () => {
    const request = linkRequest()
    const created = await gateway.createPaymentLink(request)
    expect(created.paymentLink).toMatchObject({
      linkId: expect.any(String),
      amount: "3000",
      link: expect.stringContaining("/hpp/"),
    })
    expect(created.securityToken).toEqual(expect.any(String))
    expect((await harness.payLink(created.paymentLink.linkId)).result).toBe("AUTHORIZED")
    const details = await gateway.getOrder(request.order.orderId)
    const paying = details.operations.at(-1)!
    expect(paying.paymentLinkId).toBe(created.paymentLink.linkId)
    expect(details.paymentLinks).toEqual([{ ...created.paymentLink, paidByOperationId: paying.operationId }])
  })

  it("cancelPaymentLink resolves, again too; an unknown link is NotFoundError; a paid one InvalidRequestError", async () => {
    const open = await gateway.createPaymentLink(linkRequest())
    await gateway.cancelPaymentLink(open.paymentLink.linkId)
    await gateway.cancelPaymentLink(open.paymentLink.linkId)
    await expect(harness.payLink(open.paymentLink.linkId)).rejects.toThrow(/409.*was cancelled by the merchant/)
    expect(await failure(gateway.cancelPaymentLink("UNKNOWN"))).toBeInstanceOf(NotFoundError)
    const paid = await gateway.createPaymentLink(linkRequest())
    await harness.payLink(paid.paymentLink.linkId, APPROVED_CARD)
    expect(await failure(gateway.cancelPaymentLink(paid.paymentLink.linkId))).toBeInstanceOf(InvalidRequestError)
  })

  it("a bad expirationDate is InvalidRequestError naming the field", async () => {
    const error = await failure(gateway.createPaymentLink({ ...linkRequest(), expirationDate: "2020-01-01" }))
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.details[0].description).toMatch(/^expirationDate: /)
  })
})

describe("contracts", () => {
  it("listCustomerContracts lists them; deactivateContract ends one; none is an empty list, not an error", async () => {
    await saveContract("C1")
    await saveContract("C2", "CIT")
    const listed = await gateway.listCustomerContracts(CUSTOMER)
    expect(listed.contracts.map((contract) => [contract.contractId, contract.contractType])).toEqual([
      ["C1", "MIT_UNSCHEDULED"],
      ["C2", "CIT"],
    ])
    await gateway.deactivateContract("C1")
    await gateway.deactivateContract("C1")
    await gateway.deactivateContract("C2")
    expect(await gateway.listCustomerContracts(CUSTOMER)).toEqual({ customerId: CUSTOMER, contracts: [] })
    expect((await failure(gateway.chargeContract(mitRequest("C1"), randomUUID()))).details[0].code).toBe("SIM1006")
  })

  it("a deactivation or link cancel reads only the status: a 200 with a body that is not JSON still resolves", async () => {
    await saveContract("C1")
    const link = await gateway.createPaymentLink(linkRequest())
    for (const path of ["/contracts/C1/deactivation", `/paybylink/${link.paymentLink.linkId}/cancels`]) {
      await harness.fault({
        match: { path: harness.gatewayPath(path) },
        times: 1,
        phase: "after",
        action: { type: "status", status: 200, body: "OK" },
      })
    }
    await gateway.deactivateContract("C1")
    await gateway.cancelPaymentLink(link.paymentLink.linkId)
    expect(await gateway.listCustomerContracts(CUSTOMER)).toEqual({ customerId: CUSTOMER, contracts: [] })
  })

  it("deactivating an unknown contract is NotFoundError", async () => {
    expect(await failure(gateway.deactivateContract("NOPE"))).toBeInstanceOf(NotFoundError)
  })
})
