import { formatMoney, NO_VALUE } from "../money"

describe("formatMoney", () => {
  it.each([
    [{ amount: "12.50", currency: "EUR" }, "€12.50"],
    [{ amount: "12.5", currency: "EUR" }, "€12.50"],
    [{ amount: "1234567.89", currency: "EUR" }, "€1,234,567.89"],
    [{ amount: "1200", currency: "JPY" }, "¥1,200"],
    [{ amount: "1.234", currency: "KWD" }, "KWD\u00a01.234"],
    [{ amount: "-0.50", currency: "USD" }, "-$0.50"],
  ])("shows %j as %s", (money, shown) => {
    expect(formatMoney(money, "en-US")).toBe(shown)
  })

  it("never rounds what the gateway reported: more decimals than the currency has stay", () => {
    expect(formatMoney({ amount: "2.675", currency: "EUR" }, "en-US")).toBe("€2.675")
  })

  it("keeps every digit of an amount beyond float precision", () => {
    expect(formatMoney({ amount: "90071992547409.93", currency: "EUR" }, "en-US")).toBe("€90,071,992,547,409.93")
  })

  it("follows the viewer's locale", () => {
    expect(formatMoney({ amount: "1234.5", currency: "EUR" }, "it-IT")).toBe("1234,50\u00a0€")
  })

  it("shows a placeholder where the gateway reports no amount", () => {
    expect(formatMoney(null)).toBe(NO_VALUE)
    expect(formatMoney(undefined)).toBe(NO_VALUE)
  })

  it("shows an unreadable amount or currency as it came instead of hiding it", () => {
    expect(formatMoney({ amount: "12,50", currency: "EUR" }, "en-US")).toBe("12,50 EUR")
    expect(formatMoney({ amount: "12.50", currency: "EURO" }, "en-US")).toBe("12.50 EURO")
  })
})
