import { InvalidRequestError } from "../../http/errors"
import { cardInputSchema, cardRequestError, gatewayCard } from "../card-entry"
import { describeIssues } from "../validate-input"

const now = () => new Date("2026-11-21T10:00:00Z")
const schema = cardInputSchema(now)

function problems(card: unknown): string {
  const parsed = schema.safeParse(card)
  return parsed.success ? "" : describeIssues(parsed.error)
}

describe("cardInputSchema", () => {
  it("accepts a test card with or without CVV", () => {
    expect(problems({ pan: "4999340261977289", expiryDate: "1230", cvv: "663" })).toBe("")
    expect(problems({ pan: "4999340261977289", expiryDate: "1126" })).toBe("")
  })

  it("names each bad field without repeating what was typed", () => {
    const message = problems({ pan: "4999 3402 6197 7289", expiryDate: "13/30", cvv: "66" })
    expect(message).toBe(
      "pan: must be 13 to 19 digits, without spaces; expiryDate: must be MMYY, for example 1230 for December 2030; cvv: must be 3 or 4 digits",
    )
    expect(message).not.toMatch(/4999|1330|66\b/)
  })

  it("refuses a number whose check digit is wrong, an expired card and missing fields", () => {
    expect(problems({ pan: "4999340261977288", expiryDate: "1026" })).toBe(
      "pan: is not a valid card number (its check digit is wrong); expiryDate: the card has expired",
    )
    expect(problems({})).toBe("pan: is required; expiryDate: is required")
    expect(problems({ pan: 4999340261977289, expiryDate: "1230" })).toBe("pan: must be a string of digits")
    expect(problems({ pan: "4999340261977289", expiryDate: "1230", track2: "x" })).toBe("track2: is not accepted here")
  })

  it("sends the gateway only what was typed", () => {
    expect(gatewayCard({ pan: "4999340261977289", expiryDate: "1230" })).toEqual({
      pan: "4999340261977289",
      expiryDate: "1230",
    })
  })
})

describe("cardRequestError", () => {
  it("shows the gateway's words with any card number masked", () => {
    const refusal = new InvalidRequestError("gateway", "refused", {
      status: 400,
      details: [{ code: "SIM0400", description: "card.pan: 4999340261977289 is not accepted" }],
    })
    const error = cardRequestError(refusal, "MOTO payment")
    expect(error.message).toBe(
      "The Nexi gateway refused the MOTO payment: SIM0400: card.pan: [PAN ****7289] is not accepted. Nothing was charged.",
    )
    expect(error.type).toBe("not_allowed")
  })
})
