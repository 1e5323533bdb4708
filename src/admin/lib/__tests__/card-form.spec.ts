import { cardPayload, EMPTY_CARD, expiryMMYY } from "../card-form"

describe("cardPayload", () => {
  it("removes the spaces and dashes people type in a card number", () => {
    expect(cardPayload({ pan: "4349 9401 9900-4549", expiry: "12/30", cvv: "396" })).toEqual({
      pan: "4349940199004549",
      expiryDate: "1230",
      cvv: "396",
    })
  })

  it("leaves out an empty CVV (card verification may go without one)", () => {
    expect(cardPayload({ ...EMPTY_CARD, pan: "4349940199004549", expiry: "1230", cvv: "  " })).toEqual({
      pan: "4349940199004549",
      expiryDate: "1230",
    })
  })

  it("passes anything that is not a number unchanged, so the route names the field", () => {
    expect(cardPayload({ pan: "4349abc", expiry: "1230", cvv: "" }).pan).toBe("4349abc")
  })
})

describe("expiryMMYY", () => {
  it.each([
    ["12/30", "1230"],
    ["12 / 30", "1230"],
    ["1230", "1230"],
    ["5/30", "0530"],
    ["05-2030", "0530"],
    ["12/2030", "1230"],
  ])("%s -> %s", (typed, mmyy) => {
    expect(expiryMMYY(typed)).toBe(mmyy)
  })

  it("leaves what it cannot read for the route to refuse", () => {
    expect(expiryMMYY("December")).toBe("December")
    expect(expiryMMYY("123")).toBe("123")
  })
})
