import { readAmountEntry } from "../amount-entry"

const EUR = (amount: string) => ({ amount, currency: "EUR" })

describe("readAmountEntry", () => {
  it("accepts an amount up to what is left, as the exact number Medusa's route takes", () => {
    expect(readAmountEntry("12.34", EUR("29.89"), "capture")).toEqual({ ok: true, amount: 12.34, money: EUR("12.34") })
    expect(readAmountEntry(" 29.89 ", EUR("29.89"), "capture")).toEqual({
      ok: true,
      amount: 29.89,
      money: EUR("29.89"),
    })
    expect(readAmountEntry("5.5", EUR("20.00"), "refund")).toEqual({ ok: true, amount: 5.5, money: EUR("5.50") })
    expect(readAmountEntry("0.01", EUR("0.01"), "refund")).toEqual({ ok: true, amount: 0.01, money: EUR("0.01") })
  })

  it("uses the currency's own decimals: none for JPY, three for KWD", () => {
    expect(readAmountEntry("1200", { amount: "5000", currency: "JPY" }, "capture")).toEqual({
      ok: true,
      amount: 1200,
      money: { amount: "1200", currency: "JPY" },
    })
    expect(readAmountEntry("1.234", { amount: "9.999", currency: "KWD" }, "refund")).toMatchObject({
      ok: true,
      amount: 1.234,
    })
  })

  it("refuses an empty amount, naming the field and what to enter", () => {
    expect(readAmountEntry("", EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: "Amount: enter the amount to capture, in EUR.",
    })
    expect(readAmountEntry("   ", EUR("29.89"), "refund")).toEqual({
      ok: false,
      problem: "Amount: enter the amount to refund, in EUR.",
    })
  })

  it.each(["abc", "12.", ".5", "1e3", "12.3.4", "€12", "1 234"])("refuses %j as not a number", (typed) => {
    expect(readAmountEntry(typed, EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: `Amount: "${typed}" is not a number; write it like 12.50.`,
    })
  })

  it("refuses a decimal comma rather than guess whether it separates thousands", () => {
    expect(readAmountEntry("12,50", EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: 'Amount: write the decimals after a dot, like 12.50, without thousands separators (got "12,50").',
    })
  })

  it("refuses more decimals than the currency has instead of rounding", () => {
    expect(readAmountEntry("12.345", EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: "Amount: EUR has 2 decimals; 12.345 has 3.",
    })
    expect(readAmountEntry("12.340", EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: "Amount: EUR has 2 decimals; 12.340 has 3.",
    })
    expect(readAmountEntry("100.5", { amount: "5000", currency: "JPY" }, "refund")).toEqual({
      ok: false,
      problem: "Amount: JPY has no decimals; 100.5 has 1.",
    })
  })

  it("refuses zero and negative amounts", () => {
    expect(readAmountEntry("0", EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: "Amount: must be more than 0.",
    })
    expect(readAmountEntry("0.00", EUR("29.89"), "refund")).toEqual({
      ok: false,
      problem: "Amount: must be more than 0.",
    })
    expect(readAmountEntry("-5", EUR("29.89"), "refund")).toEqual({
      ok: false,
      problem: "Amount: must be more than 0 (got -5).",
    })
  })

  it("refuses more than is left, by one minor unit, saying how much is left", () => {
    expect(readAmountEntry("29.90", EUR("29.89"), "capture")).toEqual({
      ok: false,
      problem: "Amount: at most 29.89 EUR is left to capture (got 29.90).",
    })
    expect(readAmountEntry("14.51", EUR("14.50"), "refund")).toEqual({
      ok: false,
      problem: "Amount: at most 14.50 EUR is left to refund (got 14.51).",
    })
  })

  it("refuses an amount a JSON number cannot carry exactly instead of sending it rounded", () => {
    const huge = EUR("99999999999999999999.99")
    expect(readAmountEntry("90071992547409.93", huge, "capture")).toEqual({
      ok: false,
      problem: "Amount: 90071992547409.93 has too many digits to be sent exactly.",
    })
    // A double prints this as "1e+21", which is no plain decimal at all.
    expect(readAmountEntry("1000000000000000000000", EUR("9999999999999999999999.99"), "capture")).toEqual({
      ok: false,
      problem: "Amount: 1000000000000000000000 has too many digits to be sent exactly.",
    })
    expect(readAmountEntry("9007199254740.99", huge, "capture")).toEqual({
      ok: true,
      amount: 9007199254740.99,
      money: EUR("9007199254740.99"),
    })
  })
})
