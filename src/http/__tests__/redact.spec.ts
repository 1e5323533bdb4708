import { isSecretKey, maskPans, REDACTED, redact, redactForLog } from "../redact"

describe("isSecretKey", () => {
  it.each(["X-API-KEY", "x-api-key", "X-Api-Key", "apiKey", "Authorization", "pan", "PAN", "cvv", "expiryDate", "securityToken", "consumerSecret"])(
    "treats %s as secret",
    (key) => expect(isSecretKey(key)).toBe(true),
  )

  it.each(["Idempotency-Key", "Correlation-Id", "orderId", "amount", "consumerKey"])("keeps %s readable", (key) =>
    expect(isSecretKey(key)).toBe(false),
  )
})

describe("maskPans", () => {
  it.each([
    ["4999340261977289", "[PAN ****7289]"],
    ["card 5515931855858729 declined", "card [PAN ****8729] declined"],
    ["4999 3402 6197 7289", "[PAN ****7289]"],
    ["4999-3402-6197-7289", "[PAN ****7289]"],
    ["a 13-digit 4222222222222 visa", "a 13-digit [PAN ****2222] visa"],
  ])("masks %p", (text, masked) => expect(maskPans(text)).toBe(masked))

  it.each([
    ["a long number failing Luhn", "4999340261977288"],
    ["12 digits", "499934026197"],
    ["20 digits", "49993402619772890000"],
    ["an amount", "1999"],
    ["a timestamp", "2024-01-01T00:00:00.000Z"],
  ])("leaves %s alone", (_case, text) => expect(maskPans(text)).toBe(text))
})

describe("redact", () => {
  const input = {
    headers: { "X-API-KEY": "k1", Authorization: "Bearer abc", "Idempotency-Key": "idem" },
    order: { orderId: "A1", description: "paid with 4999340261977289" },
    card: { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
    list: [{ securityToken: "t1" }, "5515931855858729", 42],
    nothing: null,
  }

  it("replaces secret keys at any depth and masks card numbers in strings, leaving the input untouched", () => {
    const copy = JSON.parse(JSON.stringify(input))
    expect(redact(input)).toEqual({
      headers: { "X-API-KEY": REDACTED, Authorization: REDACTED, "Idempotency-Key": "idem" },
      order: { orderId: "A1", description: "paid with [PAN ****7289]" },
      card: { pan: REDACTED, expiryDate: REDACTED, cvv: REDACTED },
      list: [{ securityToken: REDACTED }, "[PAN ****8729]", 42],
      nothing: null,
    })
    expect(input).toEqual(copy)
  })

  it("redactForLog handles JSON text, plain text, numbers that are card numbers and nothing", () => {
    expect(redactForLog('{"cvv":"123","pan":"4999340261977289"}')).toBe(`{"cvv":"${REDACTED}","pan":"${REDACTED}"}`)
    expect(redactForLog("not json 4999340261977289")).toBe("not json [PAN ****7289]")
    expect(redactForLog({ cardNumber: 4999340261977289 })).toBe('{"cardNumber":[PAN ****7289]}')
    expect(redactForLog(undefined)).toBe("")
  })
})
