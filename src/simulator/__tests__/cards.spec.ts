/** Card checks: Luhn, circuits, expiry, CVV, and the outcome of each sandbox test card. */
import { passesLuhn } from "../../http/luhn"
import { checkCard } from "../cards"
import { CARDS } from "./support/test-cards"

const NOW = new Date("2026-06-15T12:00:00Z")

describe("checkCard", () => {
  it.each([
    [CARDS.approved, "VISA", "APPROVE"],
    [CARDS.approvedMc, "MC", "APPROVE"],
    [CARDS.challenge, "VISA", "CHALLENGE"],
    [CARDS.challengeMc, "MC", "CHALLENGE"],
    [CARDS.declined, "MC", "DECLINE"],
    [CARDS.threeDSFailed, "VISA", "FAIL_3DS"],
    [{ pan: "4742158750987704", expiryDate: "1230", cvv: "123" }, "VISA", "FAIL_3DS"],
    [{ pan: "5311082291191543", expiryDate: "1230", cvv: "123" }, "MC", "FAIL_3DS"],
    [{ pan: "4513532658051267", expiryDate: "1230", cvv: "729" }, "VISA", "APPROVE"],
    [CARDS.otherVisa, "VISA", "APPROVE"],
    [CARDS.otherAmex, "AMEX", "APPROVE"],
    [{ pan: "6759649826438453", expiryDate: "1230", cvv: "123" }, "MAESTRO", "APPROVE"],
    [{ pan: "2223003122003222", expiryDate: "1230", cvv: "123" }, "MC", "APPROVE"],
  ])("%j is %s, %s", (card, circuit, behaviour) => {
    const check = checkCard(card, NOW, { cvvRequired: true })
    expect(check).toEqual({
      ok: true,
      card: {
        circuit,
        behaviour,
        cardCountry: "ITA",
        maskedPan: `***${card.pan.slice(-4)}`,
        expiry: { month: Number(card.expiryDate.slice(0, 2)), year: 2000 + Number(card.expiryDate.slice(2)) },
      },
    })
  })

  it("accepts spaces in the number and mm/yy expiries", () => {
    expect(checkCard({ pan: "4999 3402 6197 7289", expiryDate: "12/30" }, NOW, { cvvRequired: false }).ok).toBe(true)
  })

  it("accepts a card until the end of its expiry month", () => {
    expect(checkCard({ pan: CARDS.otherVisa.pan, expiryDate: "0626" }, NOW, { cvvRequired: false }).ok).toBe(true)
    expect(checkCard({ pan: CARDS.otherVisa.pan, expiryDate: "0526" }, NOW, { cvvRequired: false })).toEqual({
      ok: false,
      field: "expiryDate",
      message: "the card expired at the end of 05/26",
    })
  })

  it.each([
    [{ pan: "4111", expiryDate: "1230" }, "pan", /12 to 19 digits/],
    [{ pan: CARDS.notLuhn.pan, expiryDate: "1230" }, "pan", /check digit/],
    [{ pan: CARDS.otherVisa.pan, expiryDate: "1330" }, "expiryDate", /mmyy/],
    [{ pan: CARDS.otherVisa.pan, expiryDate: "1230", cvv: "12" }, "cvv", /3 digits/],
    [{ pan: CARDS.otherAmex.pan, expiryDate: "1230", cvv: "123" }, "cvv", /4 digits for a AMEX/],
  ])("refuses %j", (card, field, message) => {
    const check = checkCard(card, NOW, { cvvRequired: false })
    expect(check).toEqual({ ok: false, field, message: expect.stringMatching(message) })
  })

  it("never returns the card number", () => {
    expect(JSON.stringify(checkCard(CARDS.approved, NOW, { cvvRequired: true }))).not.toContain(CARDS.approved.pan)
  })
})

describe("passesLuhn", () => {
  it("checks the check digit", () => {
    expect(passesLuhn("79927398713")).toBe(true)
    expect(passesLuhn("79927398710")).toBe(false)
  })
})
