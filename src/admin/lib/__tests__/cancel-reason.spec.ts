import { CANCEL_REASON_MAX_LENGTH, cancelReasonProblem } from "../cancel-reason"

describe("cancelReasonProblem", () => {
  it("accepts a reason up to the gateway's 255 characters", () => {
    expect(cancelReasonProblem("Customer called: wrong size")).toBeNull()
    expect(cancelReasonProblem("x".repeat(CANCEL_REASON_MAX_LENGTH))).toBeNull()
  })

  it("refuses an empty or blank reason, naming the field", () => {
    expect(cancelReasonProblem("")).toMatch(/^Reason: /)
    expect(cancelReasonProblem("   \n")).toMatch(/^Reason: /)
  })

  it("refuses a reason longer than the gateway takes, saying how long it is", () => {
    expect(cancelReasonProblem("x".repeat(256))).toBe("Reason: at most 255 characters (256 now).")
  })
})
