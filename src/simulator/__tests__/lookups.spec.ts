/** GET /orders, /orders/{id}, /operations and /operations/{id}: newest first, every filter, bad values named. */
import type { Operation, OrderStatus } from "../../gateway/schemas"
import { setUpSimulator } from "./support/harness"

const harness = setUpSimulator({ apiKeys: ["5d952446-9004-4023-9eae-a527a152846b", "other-merchant"] })
const HOUR_MS = 60 * 60 * 1000

async function motoAt(offsetMs: number, customField?: string, captureType?: string) {
  await harness.control("POST", "/clock", { offsetMs })
  const answer = await harness.gateway("POST", "/orders/moto", {
    body: {
      order: {
        orderId: harness.newOrderId(),
        amount: "1000",
        currency: "EUR",
        ...(customField ? { customField } : {}),
      },
      card: { pan: "4999340261977289", expiryDate: "1230" },
      ...(captureType ? { captureType } : {}),
    },
  })
  await harness.control("POST", "/clock", { offsetMs: 0 })
  return answer.body.operation
}

describe("GET /orders", () => {
  it("lists the merchant's orders newest first, as order status records", async () => {
    const older = await motoAt(-2 * HOUR_MS)
    const newer = await motoAt(-HOUR_MS)
    const answer = await harness.gateway("GET", "/orders")
    expect(answer.status).toBe(200)
    expect(answer.body.orders.map((status: OrderStatus) => status.order.orderId)).toEqual([
      newer.orderId,
      older.orderId,
    ])
    expect(answer.body.orders[0]).toMatchObject({
      authorizedAmount: "1000",
      capturedAmount: "0",
      lastOperationType: "AUTHORIZATION",
    })
    expect((await harness.gateway("GET", "/orders", { apiKey: "other-merchant" })).body.orders).toEqual([])
  })

  it("filters by fromTime, toTime, customField and limits with maxRecords", async () => {
    const old = await motoAt(-3 * HOUR_MS, "campaign")
    const middle = await motoAt(-2 * HOUR_MS, "other")
    const recent = await motoAt(-HOUR_MS, "campaign")
    const ids = async (query: string) =>
      (await harness.gateway("GET", `/orders?${query}`)).body.orders.map((status: OrderStatus) => status.order.orderId)
    const at = (offset: number) => new Date(Date.now() + offset).toISOString()
    expect(await ids(`fromTime=${at(-2.5 * HOUR_MS)}`)).toEqual([recent.orderId, middle.orderId])
    expect(await ids(`toTime=${at(-1.5 * HOUR_MS)}`)).toEqual([middle.orderId, old.orderId])
    expect(await ids("customField=campaign")).toEqual([recent.orderId, old.orderId])
    expect(await ids("maxRecords=1")).toEqual([recent.orderId])
  })

  it.each([
    ["maxRecords=abc", /^maxRecords: must be a whole number above 0/],
    ["maxRecords=0", /^maxRecords: /],
    ["fromTime=yesterday", /^fromTime: must be an ISO 8601 date-time/],
    ["toTime=2025-13-45T00:00:00Z", /^toTime: /],
  ])("refuses %s naming the parameter", async (query, message) => {
    const answer = await harness.gateway("GET", `/orders?${query}`)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(message)
  })
})

describe("GET /orders/{orderId}", () => {
  it("answers 404 for an unknown order", async () => {
    const answer = await harness.order("UNKNOWN1")
    expect(answer.status).toBe(404)
    expect(answer.body.errors[0].description).toMatch(/order UNKNOWN1 not found/)
  })
})

describe("GET /operations", () => {
  it("lists operations newest first with every filter", async () => {
    const authorization = await motoAt(-2 * HOUR_MS, "alpha")
    const implicit = await motoAt(-HOUR_MS, "beta", "IMPLICIT")
    const capture = await harness.postOperation("captures", authorization.operationId, "1000")
    const ids = async (query: string) => {
      const answer = await harness.gateway("GET", `/operations?${query}`)
      expect(answer.status).toBe(200)
      return answer.body.operations.map((operation: Operation) => operation.operationId)
    }
    expect(await ids("")).toEqual([capture.body.operationId, implicit.operationId, authorization.operationId])
    expect(await ids("operationType=CAPTURE")).toEqual([capture.body.operationId, implicit.operationId])
    expect(await ids("channel=BACKOFFICE&maxRecords=2")).toEqual([capture.body.operationId, implicit.operationId])
    expect(await ids("channel=ECOMMERCE")).toEqual([])
    expect(await ids("customField=alpha")).toEqual([capture.body.operationId, authorization.operationId])
    expect(
      await ids(
        `fromTime=${new Date(Date.now() - 1.5 * HOUR_MS).toISOString()}&toTime=${new Date(Date.now() - 0.5 * HOUR_MS).toISOString()}`,
      ),
    ).toEqual([implicit.operationId])
  })

  it.each([
    ["channel=WEB", /^channel: Invalid option/],
    ["operationType=PAYMENT", /^operationType: Invalid option/],
    ["maxRecords=-1", /^maxRecords: /],
    ["fromTime=31/01/2025", /^fromTime: /],
  ])("refuses %s naming the parameter", async (query, message) => {
    const answer = await harness.gateway("GET", `/operations?${query}`)
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].description).toMatch(message)
  })

  it("ignores parameters it does not know", async () => {
    expect((await harness.gateway("GET", "/operations?page=2")).status).toBe(200)
  })
})

describe("GET /operations/{operationId}", () => {
  it("answers one operation record", async () => {
    const operation = await motoAt(0)
    expect((await harness.operation(operation.operationId)).body).toEqual(operation)
  })

  it("answers 404 for an unknown operation and for another merchant's", async () => {
    const operation = await motoAt(0)
    expect((await harness.operation("111")).status).toBe(404)
    const theirs = await harness.gateway("GET", `/operations/${operation.operationId}`, { apiKey: "other-merchant" })
    expect(theirs.status).toBe(404)
  })
})
