import type { NexiTimelineOperation } from "../../../staff/contract"
import { timelineNotes, undoneOperationIds } from "../timeline"

const EUR = (amount: string) => ({ amount, currency: "EUR" })
function op(operation_id: string, type: string, result: string, cancelled_operation_id: string | null = null): NexiTimelineOperation {
  return { operation_id, type, result, amount: EUR("25.50"), time: null, channel: null, cancelled_operation_id, warnings: [], cancellable: false }
}

describe("timelineNotes", () => {
  it("says which capture a cancel rolled back, on both rows", () => {
    const notes = timelineNotes([op("A1", "AUTHORIZATION", "AUTHORIZED"), op("C1", "CAPTURE", "EXECUTED"), op("X1", "CANCEL", "EXECUTED", "C1")])
    expect(notes.get("X1")).toBe("Cancels C1")
    expect(notes.get("C1")).toBe("Cancelled by X1")
    expect(notes.has("A1")).toBe(false)
  })

  it("says which authorization a void released", () => {
    const notes = timelineNotes([op("A1", "AUTHORIZATION", "AUTHORIZED"), op("V1", "VOID", "VOIDED", "A1")])
    expect(notes.get("V1")).toBe("Voids A1")
    expect(notes.get("A1")).toBe("Voided by V1")
  })

  it("does not mark a capture undone by a cancel that failed", () => {
    const notes = timelineNotes([op("C1", "CAPTURE", "EXECUTED"), op("X1", "CANCEL", "FAILED", "C1")])
    expect(notes.get("X1")).toBe("Cancels C1")
    expect(notes.has("C1")).toBe(false)
  })

  it("adds nothing to a timeline without undo operations", () => {
    expect(timelineNotes([op("C1", "CAPTURE", "EXECUTED"), op("R1", "REFUND", "REFUNDED")]).size).toBe(0)
  })
})

describe("undoneOperationIds", () => {
  it("lists what an executed cancel or void rolled back, not what a failed one aimed at", () => {
    const operations = [op("A1", "AUTHORIZATION", "AUTHORIZED"), op("C1", "CAPTURE", "EXECUTED"), op("X1", "CANCEL", "FAILED", "C1"), op("V1", "VOID", "VOIDED", "A1")]
    expect([...undoneOperationIds(operations)]).toEqual(["A1"])
  })
})
