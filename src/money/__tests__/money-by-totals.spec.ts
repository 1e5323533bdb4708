import BigNumber from "bignumber.js"
import fc from "fast-check"
import { InvalidAmountError, leavesRoom, minorUnitsToSend } from "../amount"

/** What a sequence of writes sends, each from Medusa's total of the ones before it. */
function sendAll(amounts: string[], currencyCode: string, leftMinor?: bigint): bigint[] {
  let before = new BigNumber(0)
  let left = leftMinor
  return amounts.map((amount) => {
    const sent = minorUnitsToSend({ amount, before: before.toFixed(), currencyCode, leftMinor: left })
    before = before.plus(amount)
    if (left !== undefined) left -= sent
    return sent
  })
}

describe("minorUnitsToSend (money by totals)", () => {
  it.each([
    { currency: "EUR", amounts: ["1.005", "1.005"], sent: ["101", "100"] },
    { currency: "EUR", amounts: ["12.688", "12.688", "12.688"], sent: ["1269", "1269", "1268"] },
    { currency: "EUR", amounts: ["19.99", "0.01"], sent: ["1999", "1"] },
    { currency: "JPY", amounts: ["100.5", "100.5"], sent: ["101", "100"] },
    { currency: "JPY", amounts: ["1", "2", "3"], sent: ["1", "2", "3"] },
    { currency: "KWD", amounts: ["1.0005", "1.0005"], sent: ["1001", "1000"] },
    { currency: "KWD", amounts: ["3.3333", "3.3333", "3.3334"], sent: ["3333", "3334", "3333"] },
  ])(
    "sends $sent in $currency for $amounts: the rounded total after each minus the rounded total before",
    ({ currency, amounts, sent }) => {
      expect(sendAll(amounts, currency).map(String)).toEqual(sent)
    },
  )

  it("adds up to the rounded total where rounding each amount alone would not (2 x 1.005 EUR is 201, not 202)", () => {
    const sent = sendAll(["1.005", "1.005"], "EUR")
    expect(sent.reduce((sum, minor) => sum + minor, 0n)).toBe(201n)
  })

  it("reads Medusa's amount forms: its raw { value } and lower-case currency codes", () => {
    expect(
      minorUnitsToSend({
        amount: { value: "12.688", precision: 20 },
        before: { value: "25.376" },
        currencyCode: "eur",
      }),
    ).toBe(1268n)
  })

  it("caps a rounding excess of one minor unit at what the gateway has left", () => {
    expect(minorUnitsToSend({ amount: "12.688", before: "0", currencyCode: "EUR", leftMinor: 1268n })).toBe(1268n)
  })

  it("leaves more than rounding explains to the gateway to refuse, and nothing left uncapped", () => {
    expect(minorUnitsToSend({ amount: "12.688", before: "0", currencyCode: "EUR", leftMinor: 1000n })).toBe(1269n)
    expect(minorUnitsToSend({ amount: "0.01", before: "0", currencyCode: "EUR", leftMinor: 0n })).toBe(1n)
  })

  it("refuses what a single amount refuses, naming the field", () => {
    expect(() => minorUnitsToSend({ amount: "0.004", before: "1", currencyCode: "EUR" })).toThrow(
      /^amount: 0\.004 EUR is less than one minor unit/,
    )
    expect(() => minorUnitsToSend({ amount: "-1", before: "0", currencyCode: "EUR" })).toThrow(
      /^amount: must not be negative/,
    )
    expect(() => minorUnitsToSend({ amount: "1", before: "0", currencyCode: "XXX" })).toThrow(/currency_code/)
  })

  it("refuses a negative earlier total", () => {
    expect(() => minorUnitsToSend({ amount: "1", before: "-0.5", currencyCode: "EUR" })).toThrow(InvalidAmountError)
    expect(() => minorUnitsToSend({ amount: "1", before: "-0.5", currencyCode: "EUR" })).toThrow(
      /Medusa's total before it/,
    )
  })
})

describe("money by totals (property)", () => {
  const currencies = fc.constantFrom(["EUR", 2], ["JPY", 0], ["KWD", 3]) as fc.Arbitrary<[string, number]>
  // Amounts with up to two digits below the minor unit, as Medusa's taxed totals carry, of at least one minor unit.
  const amounts = fc.array(fc.integer({ min: 100, max: 5_000_000 }), { minLength: 1, maxLength: 12 })
  const round = (total: BigNumber, exponent: number) =>
    BigInt(total.shiftedBy(exponent).integerValue(BigNumber.ROUND_HALF_UP).toFixed(0))

  it("captures then refunds in any parts: the gateway moves round(Medusa's total), never more than it holds, and a retry sends the same", () => {
    fc.assert(
      fc.property(
        currencies,
        amounts,
        amounts,
        fc.nat(1_000_000),
        ([currency, exponent], captureParts, refundParts, spare) => {
          const major = (hundredths: number) => new BigNumber(hundredths).shiftedBy(-(exponent + 2))
          const captures = captureParts.map(major)
          const payment = captures.reduce((sum, part) => sum.plus(part), major(spare))
          const authorizedMinor = round(payment, exponent)

          let capturedMinor = 0n
          let captured = new BigNumber(0)
          for (const part of captures) {
            const step = {
              amount: part.toFixed(),
              before: captured.toFixed(),
              currencyCode: currency,
              leftMinor: authorizedMinor - capturedMinor,
            }
            const sent = minorUnitsToSend(step)
            expect(minorUnitsToSend(step)).toBe(sent)
            capturedMinor += sent
            captured = captured.plus(part)
            expect(capturedMinor).toBe(round(captured, exponent))
            expect(capturedMinor).toBeLessThanOrEqual(authorizedMinor)
          }

          let refundedMinor = 0n
          let refunded = new BigNumber(0)
          for (const part of refundParts.map(major)) {
            // Medusa refuses a refund beyond what it captured.
            if (refunded.plus(part).isGreaterThan(captured)) break
            const sent = minorUnitsToSend({
              amount: part.toFixed(),
              before: refunded.toFixed(),
              currencyCode: currency,
              leftMinor: capturedMinor - refundedMinor,
            })
            refundedMinor += sent
            refunded = refunded.plus(part)
            expect(refundedMinor).toBe(round(refunded, exponent))
            expect(refundedMinor).toBeLessThanOrEqual(capturedMinor)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe("leavesRoom (whether a refund can stay short of the captures without reading the gateway)", () => {
  it.each([
    { currency: "EUR", before: "0", amount: "12.688", limit: "38.064", room: true },
    { currency: "EUR", before: "12.688", amount: "12.688", limit: "38.064", room: true },
    // The last of three: rounded, it reaches the captures' rounded total.
    { currency: "EUR", before: "25.376", amount: "12.688", limit: "38.064", room: false },
    // One minor unit short of the end by Medusa's unrounded figures, the end once rounded.
    { currency: "EUR", before: "0", amount: "38.06", limit: "38.064", room: false },
    { currency: "EUR", before: "1.005", amount: "1", limit: "3", room: true },
    { currency: "JPY", before: "0", amount: "499.5", limit: "1000", room: true },
    { currency: "JPY", before: "500", amount: "499.5", limit: "1000", room: false },
    { currency: "KWD", before: "0.0005", amount: "1.234", limit: "1.2345", room: false },
    { currency: "KWD", before: "0", amount: "1.2334", limit: "1.2345", room: true },
  ])("$currency: $before + $amount against $limit -> $room", ({ currency, before, amount, limit, room }) => {
    expect(leavesRoom({ amount, before, currencyCode: currency }, limit)).toBe(room)
  })

  it("names the field of an amount it cannot read", () => {
    expect(() => leavesRoom({ amount: "x", before: "0", currencyCode: "EUR" }, "1")).toThrow(InvalidAmountError)
  })
})
