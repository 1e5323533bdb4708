/**
 * What staff type into the card forms (MOTO, card verification), tidied the way people write
 * card data on paper ("4349 9401 9900 4549", "12/30") into what the routes take. Only
 * formatting is undone here; the routes check the values and name the field that is wrong,
 * so the rules live in one place. The values only ever live in the form's React state.
 */
export interface CardFormValue {
  pan: string
  expiry: string
  cvv: string
}

export const EMPTY_CARD: CardFormValue = { pan: "", expiry: "", cvv: "" }

/** The `card` member of the MOTO and card verification bodies. */
export interface CardBody {
  pan: string
  /** MMYY */
  expiryDate: string
  cvv?: string
}

export function cardPayload(value: CardFormValue): CardBody {
  const cvv = value.cvv.trim()
  return { pan: value.pan.replace(/[\s-]/g, ""), expiryDate: expiryMMYY(value.expiry), ...(cvv ? { cvv } : {}) }
}

/** "12/30", "12 / 30", "12-2030" -> "1230"; anything else goes as typed, for the route to name. */
export function expiryMMYY(typed: string): string {
  const compact = typed.replace(/\s/g, "")
  // A one-digit month needs the separator: "123" could be 1/23 or 12/3.
  const match = /^(\d{1,2})[/-](\d{2}|20\d{2})$/.exec(compact) ?? /^(\d{2})(\d{2})$/.exec(compact)
  if (!match) return compact
  const [, month, year] = match
  return `${month.padStart(2, "0")}${year.slice(-2)}`
}
