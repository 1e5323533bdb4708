import { humanizeCode, methodTypeLabel, mobileStateBadge, operationResultBadge, threeDSLabel } from "../status"

describe("operationResultBadge", () => {
  it.each([
    ["AUTHORIZED", "Authorized", "green"],
    ["EXECUTED", "Executed", "green"],
    ["THREEDS_VALIDATED", "3DS validated", "blue"],
    ["PENDING", "Pending", "orange"],
    ["DECLINED", "Declined", "red"],
    ["DENIED_BY_RISK", "Denied by risk", "red"],
    ["THREEDS_FAILED", "3DS failed", "red"],
    ["FAILED", "Failed", "red"],
    ["CANCELED", "Canceled", "grey"],
    ["VOIDED", "Voided", "grey"],
    ["REFUNDED", "Refunded", "purple"],
  ])("%s reads %s in %s", (result, label, color) => {
    expect(operationResultBadge(result)).toEqual({ label, color })
  })

  it("shows a result it does not know by its own name, grey, never as a success", () => {
    expect(operationResultBadge("PARTIALLY_SETTLED")).toEqual({ label: "Partially settled", color: "grey" })
    expect(operationResultBadge(null)).toEqual({ label: "Unknown", color: "grey" })
  })
})

describe("mobileStateBadge", () => {
  it.each([
    ["AUTHORIZED", "green"],
    ["FINALIZED", "green"],
    ["REPORTED", "green"],
    ["INITIALIZED", "orange"],
    ["PENDING", "orange"],
    ["RESERVED", "orange"],
    ["REJECTED", "red"],
    ["FAILED", "red"],
    ["TIMEDOUT", "red"],
    ["STALE", "red"],
    ["CANCELLED", "grey"],
  ])("%s is %s", (state, color) => {
    expect(mobileStateBadge(state).color).toBe(color)
  })

  it("shows an unknown state grey under its own name", () => {
    expect(mobileStateBadge("ON_HOLD")).toEqual({ label: "On hold", color: "grey" })
  })
})

describe("humanizeCode and threeDSLabel", () => {
  it("turns gateway codes into words", () => {
    expect(humanizeCode("AUTHORIZATION")).toBe("Authorization")
    expect(humanizeCode("CARDS")).toBe("Cards")
    expect(humanizeCode("")).toBe("Unknown")
  })

  it("says when the gateway reported no 3-D Secure outcome", () => {
    expect(threeDSLabel("FRICTIONLESS")).toBe("Frictionless")
    expect(threeDSLabel("CHALLENGE")).toBe("Challenge")
    expect(threeDSLabel(null)).toBe("Not reported")
  })
})

describe("methodTypeLabel", () => {
  it("names the gateway's method types as staff know them", () => {
    expect(methodTypeLabel("CARD")).toBe("Card")
    expect(methodTypeLabel("APM")).toBe("Alternative payment")
    expect(methodTypeLabel("WALLET_X")).toBe("Wallet x")
  })
})
