/**
 * PaymentRecords reads Medusa's record services from the payment module's container. The
 * stand-ins come from ./support/provider-cradle (only what a test puts in them); services
 * that fail in other ways are stood in here. The integration suites read the real ones.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { testCradle } from "../../../test-support/provider-cradle"
import { PaymentRecords } from "../medusa-records"

function failingService(message: string) {
  return {
    async retrieve(): Promise<never> {
      throw new Error(message)
    },
  }
}

async function rejection(promise: Promise<unknown>): Promise<MedusaError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(MedusaError)
  return error as MedusaError
}

describe("PaymentRecords", () => {
  describe("captureTotals", () => {
    /** A capture of 10.005 whose payment holds it and an earlier capture of 5.25. */
    function captureOf(fields: Record<string, unknown> = {}) {
      const capture = { id: "capt_2", amount: 10, raw_amount: { value: "10.005", precision: 20 }, ...fields }
      return { ...capture, payment: { captures: [{ id: "capt_1", amount: 5.25 }, capture] } }
    }
    const totals = (container: Record<string, unknown>, id = "capt_2") =>
      new PaymentRecords(container).captureTotals(id)

    it("reads the capture's raw amount and the payment's captures before it, in one read", async () => {
      const retrieve = jest.fn(async () => captureOf())
      await expect(totals({ captureService: { retrieve } })).resolves.toEqual({
        amount: "10.005",
        capturedBefore: "5.25",
      })
      expect(retrieve).toHaveBeenCalledTimes(1)
      expect(retrieve).toHaveBeenCalledWith("capt_2", { relations: ["payment", "payment.captures"] })
    })

    it("reads amount when there is no raw_amount, and adds the earlier captures' raw amounts", async () => {
      const cradle = testCradle()
      const capture = { id: "capt_3", amount: 12.5 }
      const earlier = [{ id: "capt_1", amount: 10, raw_amount: { value: "10.1", precision: 20 } }, { amount: 0.2 }]
      cradle.captures.set("capt_3", { ...capture, payment: { captures: [...earlier, capture] } })
      await expect(totals(cradle, "capt_3")).resolves.toEqual({ amount: "12.5", capturedBefore: "10.3" })
    })

    it("fails closed without an id", async () => {
      const error = await rejection(new PaymentRecords(testCradle()).captureTotals(undefined))
      expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
      expect(error.message).toBe(
        "the Medusa capture could not be read (Medusa passed no id for it); nothing was sent to the gateway.",
      )
    })

    it("fails closed when the container has no capture service", async () => {
      const error = await rejection(totals({}))
      expect(error.message).toBe(
        "the Medusa capture capt_2 could not be read (the payment module has no captureService); nothing was sent to the gateway.",
      )
    })

    it("fails closed when resolving the service throws (an Awilix cradle does for unknown names)", async () => {
      const container = new Proxy(
        {},
        {
          get() {
            throw new Error("Could not resolve 'captureService'")
          },
        },
      )
      const error = await rejection(totals(container))
      expect(error.message).toContain(
        "the Medusa capture capt_2 could not be read (the payment module has no captureService)",
      )
    })

    it("fails closed when the capture does not exist", async () => {
      const error = await rejection(totals(testCradle()))
      expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
      expect(error.message).toBe(
        "the Medusa capture capt_2 could not be read (it does not exist); nothing was sent to the gateway.",
      )
    })

    it("fails closed when the read fails otherwise", async () => {
      const error = await rejection(totals({ captureService: failingService("connection reset") }))
      expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
      expect(error.message).toBe(
        "the Medusa capture capt_2 could not be read (connection reset); nothing was sent to the gateway.",
      )
    })

    it("fails closed when the payment's captures cannot be found", async () => {
      const cradle = testCradle()
      cradle.captures.set("capt_2", { id: "capt_2", amount: 1, payment: {} })
      const error = await rejection(totals(cradle))
      expect(error.message).toBe(
        "the captures of the payment of Medusa capture capt_2 could not be read (they were not found); nothing was sent to the gateway.",
      )
    })
  })

  describe("refundTotals", () => {
    it("reads the refunds before this one and the captures of its payment in one read", async () => {
      const retrieve = jest.fn(async () => ({
        id: "ref_2",
        payment: {
          refunds: [
            { id: "ref_1", amount: 1, raw_amount: { value: "1.005", precision: 20 } },
            { id: "ref_2", amount: 3 },
          ],
          captures: [{ amount: 20 }, { amount: 0.25 }],
        },
      }))
      const totals = await new PaymentRecords({ refundService: { retrieve } }).refundTotals("ref_2")
      expect(totals).toEqual({ refundedBefore: "1.005", captured: "20.25" })
      expect(retrieve).toHaveBeenCalledTimes(1)
      expect(retrieve).toHaveBeenCalledWith("ref_2", { relations: ["payment", "payment.refunds", "payment.captures"] })
    })

    it("fails closed when the payment's captures were not read", async () => {
      const cradle = testCradle()
      cradle.refunds.set("ref_2", { id: "ref_2", payment: { refunds: [{ id: "ref_2", amount: 3 }] } })
      const error = await rejection(new PaymentRecords(cradle).refundTotals("ref_2"))
      expect(error.message).toBe(
        "the captures of the payment of Medusa refund ref_2 could not be read (they were not found); nothing was sent to the gateway.",
      )
    })
  })

  describe("refundMetadata", () => {
    it("returns the refund's metadata", async () => {
      const cradle = testCradle()
      cradle.refunds.set("ref_1", { id: "ref_1", metadata: { nexi_operation_id: "op_1" } })
      await expect(new PaymentRecords(cradle).refundMetadata("ref_1")).resolves.toEqual({ nexi_operation_id: "op_1" })
    })

    it("returns {} for null or absent metadata", async () => {
      const cradle = testCradle()
      cradle.refunds.set("ref_1", { id: "ref_1", metadata: null })
      cradle.refunds.set("ref_2", { id: "ref_2" })
      await expect(new PaymentRecords(cradle).refundMetadata("ref_1")).resolves.toEqual({})
      await expect(new PaymentRecords(cradle).refundMetadata("ref_2")).resolves.toEqual({})
    })

    it("fails closed for a missing refund, a missing id and a failed read", async () => {
      expect((await rejection(new PaymentRecords(testCradle()).refundMetadata("ref_1"))).message).toBe(
        "the Medusa refund ref_1 could not be read (it does not exist); nothing was sent to the gateway.",
      )
      expect((await rejection(new PaymentRecords(testCradle()).refundMetadata(undefined))).message).toBe(
        "the Medusa refund could not be read (Medusa passed no id for it); nothing was sent to the gateway.",
      )
      expect(
        (await rejection(new PaymentRecords({ refundService: failingService("timeout") }).refundMetadata("ref_1")))
          .message,
      ).toBe("the Medusa refund ref_1 could not be read (timeout); nothing was sent to the gateway.")
    })
  })

  describe("session", () => {
    it("returns the session", async () => {
      const cradle = testCradle()
      const row = { id: "payses_1", status: "pending", data: {}, amount: 10, currency_code: "eur" }
      cradle.sessions.set("payses_1", row)
      await expect(new PaymentRecords(cradle).session("payses_1")).resolves.toEqual(row)
    })

    it("returns undefined only when Medusa holds no such session", async () => {
      await expect(new PaymentRecords(testCradle()).session("payses_gone")).resolves.toBeUndefined()
    })

    it("throws when the read fails otherwise", async () => {
      const error = await rejection(
        new PaymentRecords({ paymentSessionService: failingService("db down") }).session("payses_1"),
      )
      expect(error.message).toBe(
        "the payment session payses_1 could not be read (db down); nothing was sent to the gateway.",
      )
      // A MedusaError of another type is a failure too, not an absent session.
      const notAllowed = {
        async retrieve(): Promise<never> {
          throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "nope")
        },
      }
      expect(
        (await rejection(new PaymentRecords({ paymentSessionService: notAllowed }).session("payses_1"))).message,
      ).toContain("(nope)")
    })

    it("throws when there is no session service or no id", async () => {
      expect((await rejection(new PaymentRecords({}).session("payses_1"))).message).toContain(
        "the payment module has no paymentSessionService",
      )
      expect((await rejection(new PaymentRecords(testCradle()).session(""))).message).toContain(
        "Medusa passed no id for it",
      )
    })
  })
})
