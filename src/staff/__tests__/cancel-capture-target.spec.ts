import { capturedCancelledRecapturedRefunded, motoAuthorizedJpy } from "../../core/__tests__/gateway-records"
import { readCardOrder } from "../../core/card/card-order"
import type { OrderDetails } from "../../gateway/schemas"
import { findCaptureToCancel as findInOrder } from "../cancel-capture"

/** The capture, found in the read model of the gateway's record as the cancel reads it. */
const findCaptureToCancel = (details: OrderDetails, operationId: string) =>
  findInOrder(readCardOrder(details), operationId)

describe("findCaptureToCancel", () => {
  it("finds an executed capture that nothing cancelled yet", () => {
    const found = findCaptureToCancel(capturedCancelledRecapturedRefunded(), "198378169041436")
    expect(found.capture.operationAmount).toBe("3998")
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
