import BigNumber from "bignumber.js"
import { capturedCancelledRecapturedRefunded, motoAuthorizedJpy } from "../../core/__tests__/gateway-records"
import { readCardOrder } from "../../core/card/card-order"
import type { OrderDetails } from "../../gateway/schemas"
import { findCaptureToCancel as findInOrder, syncMessage } from "../payment-actions"

/** The capture, found in the read model of the gateway's record as the cancel reads it. */
const findCaptureToCancel = (details: OrderDetails, operationId: string) =>
  findInOrder(readCardOrder(details), operationId)

describe("findCaptureToCancel", () => {
  it("finds an executed capture that nothing cancelled yet", () => {
    const found = findCaptureToCancel(capturedCancelledRecapturedRefunded(), "198378169041436")
    expect(found.capture.amountMinor).toBe("3998")
    expect(found.cancelledBy).toBeUndefined()
  })

  it("finds the CANCEL of a capture already rolled back", () => {
    const found = findCaptureToCancel(capturedCancelledRecapturedRefunded(), "908387210732492")
    expect(found.cancelledBy?.operationId).toBe("427882645072667")
  })

  it("fix: finds a CANCEL the gateway recorded as VOIDED too, so the capture is not cancelled twice", () => {
    const record = capturedCancelledRecapturedRefunded()
    record.operations[3] = { ...record.operations[3], operationResult: "VOIDED" }
    expect(findCaptureToCancel(record, "908387210732492").cancelledBy?.operationId).toBe("427882645072667")
  })

  it("does not take a CANCEL that failed or is still under way for one that rolled the capture back", () => {
    for (const operationResult of ["FAILED", "PENDING"] as const) {
      const record = capturedCancelledRecapturedRefunded()
      record.operations[3] = { ...record.operations[3], operationResult }
      expect(findCaptureToCancel(record, "908387210732492").cancelledBy).toBeUndefined()
    }
  })

  it("refuses an operation of another gateway order, naming operation_id and the order", () => {
    expect(() => findCaptureToCancel(capturedCancelledRecapturedRefunded(), "283050910406843")).toThrow(
      "operation_id: 283050910406843 is not an operation of this payment's gateway order TESTMWPPU0HS",
    )
  })

  it("refuses anything but a capture, saying what it is", () => {
    expect(() => findCaptureToCancel(capturedCancelledRecapturedRefunded(), "265008783561666")).toThrow(
      "operation_id: 265008783561666 is not a capture (its type is REFUND); only a capture can be cancelled",
    )
    expect(() => findCaptureToCancel(motoAuthorizedJpy(), "283050910406843")).toThrow(
      /is not a capture \(its type is AUTHORIZATION\)/,
    )
  })

  it("refuses a capture that did not execute", () => {
    const record = capturedCancelledRecapturedRefunded()
    record.operations[4] = { ...record.operations[4], operationResult: "FAILED" }
    expect(() => findCaptureToCancel(record, "198378169041436")).toThrow(/capture 198378169041436 has result FAILED/)
  })
})

const totals = (captured: string, refunded: string) => ({
  captured: new BigNumber(captured),
  refunded: new BigNumber(refunded),
})

describe("syncMessage", () => {
  it("names a refund recorded from the gateway, exactly", () => {
    expect(
      syncMessage({
        currency: "eur",
        before: totals("39.98", "0"),
        after: totals("39.98", "4.5"),
        gateway: { captured: "39.98", refunded: "4.50" },
      }),
    ).toBe("Recorded a refund of 4.50 EUR made at the gateway outside Medusa.")
  })

  it("says nothing changed when Medusa already agrees", () => {
    expect(
      syncMessage({
        currency: "JPY",
        before: totals("5000", "0"),
        after: totals("5000", "0"),
        gateway: { captured: "5000", refunded: "0" },
      }),
    ).toBe("Nothing to record: Medusa already has every refund the gateway reports.")
  })

  it("treats a cancelled capture recorded as a refund as agreement", () => {
    const message = syncMessage({
      currency: "EUR",
      before: totals("25.5", "25.5"),
      after: totals("25.5", "25.5"),
      gateway: { captured: "0.00", refunded: "0.00" },
    })
    expect(message).not.toMatch(/gateway holds/)
  })

  it.each([
    ["JPY", "10948.8", "10949"],
    ["EUR", "84.456", "84.46"],
  ])(
    "compares what is held as the gateway holds it, rounded: %s captured %s and refunded %s agree with nothing held",
    (currency, captured, refunded) => {
      const message = syncMessage({
        currency,
        before: totals(captured, "0"),
        after: totals(captured, refunded),
        gateway: { captured: refunded, refunded },
      })
      expect(message).toBe(`Recorded a refund of ${refunded} ${currency} made at the gateway outside Medusa.`)
    },
  )

  it("warns when the gateway holds a capture Medusa does not know", () => {
    const message = syncMessage({
      currency: "KWD",
      before: totals("0", "0"),
      after: totals("0", "0"),
      gateway: { captured: "1.234", refunded: "0.000" },
    })
    expect(message).toMatch("The gateway holds 1.234 KWD captured and not refunded, Medusa 0.000 KWD")
  })
})
