import fc from "fast-check"
import { fromMinorUnits, InvalidAmountError, toMinorUnits, toPayableMinorUnits } from "../amount"

describe("amounts below one minor unit", () => {
  it.each([
    ["0.004", "EUR", /0\.004 EUR is less than one minor unit of EUR \(0\.01\)/],
    ["0.005", "EUR", /0\.005 EUR is less than one minor unit of EUR \(0\.01\)/],
    ["0.5", "JPY", /0\.5 JPY is less than one minor unit of JPY \(1\)/],
    ["0.4999", "JPY", /0\.4999 JPY/],
    ["0.0009", "KWD", /less than one minor unit of KWD \(0\.001\)/],
    ["1e-9", "EUR", /0\.000000001 EUR/],
  ])("refuses %s %s, naming the amount and the currency", (amount, currency, message) => {
    expect(() => toMinorUnits(amount, currency)).toThrow(InvalidAmountError)
    expect(() => toMinorUnits(amount, currency)).toThrow(message)
  })

  it.each([
    ["0", "EUR", "0"],
    ["0.01", "EUR", "1"],
    ["0.014", "EUR", "1"],
    ["1", "JPY", "1"],
    ["2.684", "EUR", "268"],
  ])("still converts %s %s (zero, one minor unit and more) to %s", (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor)
  })
})

describe("toPayableMinorUnits", () => {
  it("refuses a payment of nothing, naming the currency", () => {
    expect(() => toPayableMinorUnits(0, "EUR")).toThrow(/a payment of 0 EUR cannot be started/)
    expect(() => toPayableMinorUnits("0.004", "EUR")).toThrow(InvalidAmountError)
  })

  it("converts any amount of at least one minor unit as toMinorUnits does", () => {
    expect(toPayableMinorUnits("19.99", "EUR")).toBe("1999")
  })
})

describe("round trip (property)", () => {
  const exponents = fc.constantFrom(["JPY", 0], ["EUR", 2], ["KWD", 3], ["CLF", 4]) as fc.Arbitrary<[string, number]>

  it("toMinorUnits(fromMinorUnits(n)) === n for every whole number of minor units", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), exponents, (n, [currency]) => {
        expect(toMinorUnits(fromMinorUnits(n, currency), currency)).toBe(n.toString())
      }),
    )
  })
})
