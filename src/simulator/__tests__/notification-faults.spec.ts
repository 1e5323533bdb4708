/** POST /__sim/faults/notifications: drop, copies, delay and reversed batches, with flush for determinism. */

import type { NotificationRecord } from "../notifications"
import { setUpSimulator } from "./support/harness"
import { type Receiver, startReceiver } from "./support/receiver"
import { CARDS } from "./support/test-cards"

const harness = setUpSimulator()
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())
beforeEach(() => {
  receiver.received.length = 0
})

async function payOne(extra: Record<string, unknown> = {}) {
  const hosted = await harness.hostedOrder({ paymentSession: { notificationUrl: receiver.url } })
  const paid = await harness.payHosted(hosted.orderId, CARDS.approved, extra)
  return { orderId: hosted.orderId, paid }
}

const receivedOrderIds = () => receiver.received.map(({ body }) => body.operation.orderId)

describe("notification faults", () => {
  it("drops the next N notifications", async () => {
    await harness.control("POST", "/faults/notifications", { drop: 1 })
    const dropped = await payOne()
    const delivered = await payOne()
    expect(dropped.paid.body.notification).toEqual({ url: receiver.url, error: "dropped by fault injection" })
    expect(receivedOrderIds()).toEqual([delivered.orderId])
    const recorded = (await harness.control("GET", "/notifications")).body.notifications
    expect(recorded.map((record: NotificationRecord) => record.error ?? record.status)).toEqual([
      "dropped by fault injection",
      200,
    ])
  })

  it("sends each notification several times with copies", async () => {
    await harness.control("POST", "/faults/notifications", { copies: 3 })
    const { orderId } = await payOne()
    await harness.control("POST", "/notifications/flush")
    expect(receivedOrderIds()).toEqual([orderId, orderId, orderId])
    const attempts = (await harness.control("GET", "/notifications")).body.notifications.map(
      (record: NotificationRecord) => record.attempt,
    )
    expect(attempts).toEqual([1, 2, 3])
    expect(new Set(receiver.received.map(({ body }) => body.eventId)).size).toBe(1)
  })

  it("delays each delivery by delayMs", async () => {
    await harness.control("POST", "/faults/notifications", { delayMs: 200 })
    const started = Date.now()
    await payOne({ awaitNotification: false })
    expect(receiver.received).toHaveLength(0)
    await harness.control("POST", "/notifications/flush")
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0].at - started).toBeGreaterThanOrEqual(190)
  })

  it("holds a batch and delivers it newest first", async () => {
    await harness.control("POST", "/faults/notifications", { reverseBatch: 3 })
    const first = await payOne()
    const second = await payOne()
    expect(first.paid.body.notification).toEqual({ url: receiver.url, held: true })
    expect(receiver.received).toHaveLength(0)
    const third = await payOne()
    await harness.control("POST", "/notifications/flush")
    expect(receivedOrderIds()).toEqual([third.orderId, second.orderId, first.orderId])
  })

  it("releases a partial batch on flush", async () => {
    await harness.control("POST", "/faults/notifications", { reverseBatch: 5 })
    const first = await payOne()
    const second = await payOne()
    await harness.control("POST", "/notifications/flush")
    expect(receivedOrderIds()).toEqual([second.orderId, first.orderId])
  })

  it("is cleared by DELETE /__sim/faults/notifications, releasing what it held", async () => {
    await harness.control("POST", "/faults/notifications", { reverseBatch: 5, copies: 2 })
    const held = await payOne()
    await harness.control("DELETE", "/faults/notifications")
    expect((await harness.control("GET", "/faults")).body.notifications).toEqual({})
    await harness.control("POST", "/notifications/flush")
    expect(receivedOrderIds()).toContain(held.orderId)
    receiver.received.length = 0
    await payOne()
    await harness.control("POST", "/notifications/flush")
    expect(receiver.received).toHaveLength(1)
  })

  it.each([
    ["copies", { copies: 0 }],
    ["reverseBatch", { reverseBatch: 1 }],
    ["drop", { drop: -1 }],
    ["an unknown member", { shuffle: true }],
  ])("refuses a bad %s", async (_case, faults) => {
    expect((await harness.control("POST", "/faults/notifications", faults)).status).toBe(400)
  })
})
