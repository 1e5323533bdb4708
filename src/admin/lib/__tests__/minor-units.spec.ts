import { UnknownCurrencyError } from "../../../money/currencies"
import { toMajor, toMinor } from "../minor-units"

describe("toMinor", () => {
  it.each([
    ["29.89", "EUR", 2989n],
    ["12.3", "EUR", 1230n],
    ["0.01", "EUR", 1n],
    ["1200", "JPY", 1200n],
    ["1.234", "KWD", 1234n],
    ["0.0001", "CLF", 1n],
    ["90071992547409.93", "EUR", 9007199254740993n],
  ])("%s %s is %s minor units", (amount, currency, minor) => {
    expect(toMinor(amount, currency)).toBe(minor)
  })

  it("never rounds: more decimals than the currency has is no amount at all", () => {
    expect(toMinor("2.675", "EUR")).toBeUndefined()
    expect(toMinor("1200.5", "JPY")).toBeUndefined()
  })

  it("reads only plain non-negative decimals", () => {
    for (const text of ["", "-1", "1e3", "0x1F", "12,50", " 12", ".5", "12."])
      expect(toMinor(text, "EUR")).toBeUndefined()
  })

  it("refuses a currency whose exponent it does not know instead of guessing", () => {
    expect(() => toMinor("1", "XYZ")).toThrow(UnknownCurrencyError)
  })
})

describe("toMajor", () => {
  it.each([
    [2989n, "EUR", "29.89"],
    [5n, "EUR", "0.05"],
    [0n, "EUR", "0.00"],
    [1200n, "JPY", "1200"],
    [1n, "KWD", "0.001"],
    [-1234n, "EUR", "-12.34"],
    [9007199254740993n, "EUR", "90071992547409.93"],
  ])("%s %s is %s", (minor, currency, major) => {
    expect(toMajor(minor, currency)).toBe(major)
  })
})
