import { BigNumber as MedusaBigNumber } from "@medusajs/framework/utils"
import BigNumber from "bignumber.js"
import {
  type AmountInput,
  fromMinorUnits,
  InvalidAmountError,
  minorToMajorString,
  toMinorUnits,
  totalMinorUnits,
} from "../amount"
import { currencyExponent, isKnownCurrency, UnknownCurrencyError } from "../currencies"

describe("currencyExponent", () => {
  it.each([
    ["JPY", 0],
    ["KRW", 0],
    ["ISK", 0],
    ["EUR", 2],
    ["USD", 2],
    ["KWD", 3],
    ["BHD", 3],
    ["TND", 3],
    ["CLF", 4],
    ["eur", 2],
  ])("%s has %i decimals", (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent)
    expect(isKnownCurrency(code)).toBe(true)
  })

  it("refuses a currency it does not know, naming the field", () => {
    expect(() => currencyExponent("XYZ")).toThrow(UnknownCurrencyError)
    expect(() => currencyExponent("XYZ")).toThrow(/currency_code: "XYZ"/)
    expect(isKnownCurrency("XYZ")).toBe(false)
  })
})

describe("toMinorUnits", () => {
  it.each<[AmountInput, string, string]>([
    [19.99, "EUR", "1999"],
    [0, "EUR", "0"],
    [5000, "JPY", "5000"],
    [1.234, "KWD", "1234"],
    [1.2345, "CLF", "12345"],
    [50, "EUR", "5000"],
    [50, "JPY", "50"],
    ["0.1", "EUR", "10"],
    ["-0", "EUR", "0"],
  ])("%p %s -> %s", (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor)
  })

  it.each<[AmountInput, string, string]>([
    // Float math gives 267 for 2.675 * 100; decimal math gives the half-up 268.
    [2.675, "EUR", "268"],
    [1.005, "EUR", "101"],
    [1.2345, "KWD", "1235"],
    [1.2344, "KWD", "1234"],
    [1.23455, "CLF", "12346"],
  ])("rounds %p %s half-up to %s", (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor)
  })

  it("keeps amounts beyond 2^53 minor units exact, as strings", () => {
    expect(Number.MAX_SAFE_INTEGER).toBe(9007199254740991)
    expect(toMinorUnits("90071992547409.93", "EUR")).toBe("9007199254740993")
    expect(toMinorUnits("123456789012345678901234.56", "EUR")).toBe("12345678901234567890123456")
    expect(toMinorUnits("9007199254740993", "JPY")).toBe("9007199254740993")
    expect(toMinorUnits(new BigNumber("123456789012345678901.234"), "KWD")).toBe("123456789012345678901234")
  })

  describe("every input form Medusa hands a provider", () => {
    it.each<[string, AmountInput]>([
      ["a number", 1.25],
      ["a decimal string", "1.25"],
      ["a padded string", " 1.25 "],
      ["scientific notation", "1.25e0"],
      ["bignumber.js", new BigNumber("1.25")],
      ["a raw value object", { value: "1.25", precision: 20 }],
      ["a raw value object holding a number", { value: 1.25 }],
      ["an object with raw", { raw: { value: "1.25" } }],
      ["Medusa's BigNumber from a string", new MedusaBigNumber("1.25")],
      ["Medusa's BigNumber from a number", new MedusaBigNumber(1.25)],
      ["Medusa's BigNumber from a raw value", new MedusaBigNumber({ value: "1.25", precision: 20 })],
    ])("reads %s", (_form, amount) => {
      expect(toMinorUnits(amount, "EUR")).toBe("125")
    })

    it("reads Medusa's BigNumber exactly beyond its 20 significant raw digits", () => {
      const amount = new MedusaBigNumber("123456789012345678901234.56")
      expect(toMinorUnits(amount, "EUR")).toBe("12345678901234567890123456")
    })
  })

  describe("errors name the field", () => {
    it.each<[string, AmountInput, RegExp]>([
      ["a negative amount", -1, /^refund_amount: must not be negative \(got -1\)$/],
      ["a negative string", "-0.01", /^refund_amount: must not be negative/],
      ["a word", "abc", /^refund_amount: "abc" is not a finite decimal number$/],
      ["an empty string", "", /^refund_amount: "" is not a finite decimal number$/],
      ["a comma decimal", "1,5", /^refund_amount: "1,5" is not a finite decimal number$/],
      ["a hexadecimal string", "0x10", /^refund_amount: "0x10" is not a finite decimal number$/],
      ["NaN", Number.NaN, /^refund_amount: "NaN" is not a finite decimal number$/],
      ["Infinity", Number.POSITIVE_INFINITY, /^refund_amount: "Infinity" is not a finite decimal number$/],
      ["null", null as unknown as AmountInput, /^refund_amount: is not an amount/],
      ["an object without a value", {} as AmountInput, /^refund_amount: is not an amount/],
    ])("refuses %s", (_case, amount, message) => {
      let thrown: unknown
      try {
        toMinorUnits(amount, "EUR", "refund_amount")
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(InvalidAmountError)
      expect((thrown as InvalidAmountError).field).toBe("refund_amount")
      expect((thrown as Error).message).toMatch(message)
    })

    it("refuses an unknown currency", () => {
      expect(() => toMinorUnits(1, "ABC")).toThrow(UnknownCurrencyError)
      expect(() => toMinorUnits(1, "ABC")).toThrow(/^currency_code: "ABC"/)
    })
  })
})

describe("totalMinorUnits", () => {
  it.each([
    ["10948.8", "JPY", 10949n],
    ["0.4", "JPY", 0n],
    ["0.5", "JPY", 1n],
    ["1.0005", "KWD", 1001n],
    ["-0.004", "EUR", 0n],
    ["-0.005", "EUR", -1n],
  ])(
    "rounds a total of %s %s half-up to %s minor units, below one minor unit and negative too",
    (total, currency, minor) => {
      expect(totalMinorUnits(total, currency)).toBe(minor)
    },
  )
})

describe("fromMinorUnits and minorToMajorString", () => {
  it.each([
    ["1999", "EUR", "19.99"],
    ["5000", "JPY", "5000"],
    ["1234", "KWD", "1.234"],
    ["12345", "CLF", "1.2345"],
    ["0", "EUR", "0.00"],
    ["5", "EUR", "0.05"],
    ["9007199254740993", "EUR", "90071992547409.93"],
  ])("%s %s -> %s", (minor, currency, major) => {
    expect(minorToMajorString(minor, currency)).toBe(major)
    expect(fromMinorUnits(minor, currency).isEqualTo(major)).toBe(true)
  })

  it("accepts numbers and bigints", () => {
    expect(minorToMajorString(1999, "EUR")).toBe("19.99")
    expect(minorToMajorString(9007199254740993n, "EUR")).toBe("90071992547409.93")
  })

  it.each(["19.99", "abc", "", "1e3"])("refuses %p as minor units, naming the field", (minor) => {
    expect(() => fromMinorUnits(minor, "EUR", "operationAmount")).toThrow(InvalidAmountError)
    expect(() => fromMinorUnits(minor, "EUR", "operationAmount")).toThrow(/^operationAmount: /)
  })

  it.each([
    ["EUR", ["0", "1", "99", "1999", "100000", "9007199254740993", "123456789012345678901234567890"]],
    ["JPY", ["0", "1", "5000", "9007199254740993"]],
    ["KWD", ["0", "1", "1234", "1000", "9007199254740993"]],
    ["CLF", ["0", "1", "12345", "9007199254740993"]],
  ])("round-trips minor -> major -> minor in %s", (currency, minors) => {
    for (const minor of minors) {
      expect(toMinorUnits(fromMinorUnits(minor, currency), currency)).toBe(minor)
      expect(toMinorUnits(minorToMajorString(minor, currency), currency)).toBe(minor)
    }
  })
})
