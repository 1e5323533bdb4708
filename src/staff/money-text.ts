/** "25.50 EUR", "5000 JPY", "1.234 KWD": an exact amount as staff read it in messages. */
import type BigNumber from "bignumber.js"
import { minorToMajorString, toMinorUnits } from "../money/amount"

export function moneyText(major: BigNumber | string, currency: string): string {
  const code = currency.toUpperCase()
  return `${minorToMajorString(toMinorUnits(major, code), code)} ${code}`
}
