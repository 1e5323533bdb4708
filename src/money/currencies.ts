/**
 * ISO 4217 minor-unit exponents of every active currency (plus a few recently withdrawn
 * ones a store may still hold in its database). A currency missing here is refused rather
 * than guessed: sending 100x the amount is the one mistake a payment plugin cannot make.
 */
const EXPONENT_0 = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
const EXPONENT_3 = "BHD IQD JOD KWD LYD OMR TND"
const EXPONENT_4 = "CLF UYW"
const EXPONENT_2 = [
  "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP",
  "BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR",
  "FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IRR JMD KES KGS KHR",
  "KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR",
  "MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK",
  "SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN",
  "UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL",
].join(" ")

function table(): ReadonlyMap<string, number> {
  const exponents = new Map<string, number>()
  const add = (codes: string, exponent: number) => {
    for (const code of codes.split(/\s+/)) exponents.set(code, exponent)
  }
  add(EXPONENT_0, 0)
  add(EXPONENT_2, 2)
  add(EXPONENT_3, 3)
  add(EXPONENT_4, 4)
  return exponents
}

const EXPONENTS = table()

export class UnknownCurrencyError extends Error {
  constructor(readonly currencyCode: string) {
    super(`currency_code: "${currencyCode}" is not an ISO 4217 currency this plugin knows`)
    this.name = "UnknownCurrencyError"
  }
}

/** Number of decimals of the currency's minor unit; `currencyCode` in any case. */
export function currencyExponent(currencyCode: string): number {
  const exponent = EXPONENTS.get(currencyCode.toUpperCase())
  if (exponent === undefined) throw new UnknownCurrencyError(currencyCode)
  return exponent
}

export function isKnownCurrency(currencyCode: string): boolean {
  return EXPONENTS.has(currencyCode.toUpperCase())
}
