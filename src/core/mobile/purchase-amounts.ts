/**
 * The amounts of an APM transaction, from the cart snapshot: the purchase amount split into
 * nominal and VAT, and the order lines. Pure and exact: Medusa's totals are decimals with
 * many places (22% of 9.99 is 2.1978), so every amount is kept exact in minor units and
 * rounded once, with the rounding remainders handed out so that the rounded parts add up to
 * the rounded whole (largest remainder method). Float arithmetic never touches money here.
 *
 * Without a cart snapshot (a session created outside the store route) VAT is 0 and there
 * are no lines: the provider cannot know them.
 */
import { MedusaError } from "@medusajs/framework/utils"
import BigNumber from "bignumber.js"
import type { ApmAmount, ApmOrder, OrderItem } from "../../apm/schemas"
import { type AmountInput, InvalidAmountError, toDecimal } from "../../money/amount"
import { currencyExponent } from "../../money/currencies"
import type { CartContext, CartLine } from "../cart-context"

/** One line's amounts in minor units, exact, before rounding. */
interface ExactLine {
  itemNo?: string
  reference: string
  name?: string
  quantity: number
  /** Percent, e.g. 22 for 22%. */
  taxRate: BigNumber
  gross: BigNumber
  tax: BigNumber
}

export interface Purchase {
  purchaseAmount: ApmAmount
  /** Absent when there is no cart snapshot or the cart has no lines. */
  order?: ApmOrder
}

/** The contract's unit: amounts are integers in hundredths of the denomination. */
const HUNDREDTHS_EXPONENT = 2

/**
 * The service counts in hundredths whatever the currency, so only a currency whose minor unit
 * is a hundredth means the same amount on both sides: JPY in hundredths would be read as 100x
 * the yen, KWD in thousandths as 10x. Such a currency is refused before any request rather
 * than converted by a guess (docs/contract/apm.md#amounts-and-vat).
 */
export function requireHundredthsCurrency(currencyCode: string, method: string): void {
  const exponent = currencyExponent(currencyCode)
  if (exponent === HUNDREDTHS_EXPONENT) return
  const code = currencyCode.toUpperCase()
  throw new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `Could not start the payment: the mobile payment scheme ${method} takes amounts in hundredths, and ${code} has ${exponent} decimals (ISO 4217). Use a two-decimal currency (EUR, SEK, NOK, DKK, ...) with ${method}, or another payment method for ${code}.`,
  )
}

/** Half-up to a whole number of minor units; amounts here are never negative. */
function roundMinor(value: BigNumber): bigint {
  return BigInt(value.integerValue(BigNumber.ROUND_HALF_UP).toFixed(0))
}

/** The service's amounts are JSON integers: refuse one a double cannot hold exactly. */
function toHundredths(value: bigint, field: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidAmountError(field, `${value} minor units cannot be sent to the mobile payment service`)
  }
  return Number(value)
}

/**
 * Rounds each value so that the rounded values add up to the rounded sum: every value is
 * rounded down, then the missing units go to the values that lost the most (ties to the
 * earlier value, so the result is deterministic).
 */
export function roundPreservingSum(values: BigNumber[]): bigint[] {
  const total = values.reduce((sum, value) => sum.plus(value), new BigNumber(0))
  const floors = values.map((value) => value.integerValue(BigNumber.ROUND_FLOOR))
  let missing = Number(roundMinor(total) - floors.reduce((sum, floor) => sum + BigInt(floor.toFixed(0)), 0n))
  const byRemainder = values
    .map((value, index) => ({ index, remainder: value.minus(floors[index]) }))
    .sort((a, b) => b.remainder.comparedTo(a.remainder) || a.index - b.index)
  const rounded = floors.map((floor) => BigInt(floor.toFixed(0)))
  for (const { index } of byRemainder) {
    if (missing <= 0) break
    rounded[index] += 1n
    missing--
  }
  return rounded
}

function exactLine(line: CartLine, toMinor: (amount: AmountInput, field: string) => BigNumber): ExactLine {
  const taxRate = new BigNumber(line.tax_rate ?? 0)
  const field = `nexi_cart.items.${line.id}`
  const identity = {
    itemNo: line.variant_sku ?? undefined,
    reference: line.id,
    name: line.title ?? undefined,
    quantity: line.quantity,
    taxRate,
  }
  if (line.total !== null && line.total !== undefined && line.tax_total !== null && line.tax_total !== undefined) {
    // Medusa's own line totals: after discounts, whether prices include tax or not.
    return {
      ...identity,
      gross: toMinor(line.total, `${field}.total`),
      tax: toMinor(line.tax_total, `${field}.tax_total`),
    }
  }
  const amount = toMinor(line.unit_price, `${field}.unit_price`).times(line.quantity)
  if (line.is_tax_inclusive) {
    return { ...identity, gross: amount, tax: amount.minus(amount.div(taxRate.div(100).plus(1))) }
  }
  const tax = amount.times(taxRate).div(100)
  return { ...identity, gross: amount.plus(tax), tax }
}

function exactShippingLine(
  cart: CartContext,
  toMinor: (amount: AmountInput, field: string) => BigNumber,
): ExactLine | undefined {
  if (cart.shipping_total === null || cart.shipping_total === undefined) return undefined
  const gross = toMinor(cart.shipping_total, "nexi_cart.shipping_total")
  if (gross.isZero()) return undefined
  const tax = toMinor(cart.shipping_tax_total ?? 0, "nexi_cart.shipping_tax_total")
  const net = gross.minus(tax)
  // Medusa keeps no shipping tax rate on the cart: derive it from the amounts.
  const taxRate = net.isZero() ? new BigNumber(0) : tax.div(net).times(100)
  return { reference: "shipping", name: "Shipping", quantity: 1, taxRate, gross, tax }
}

function toOrderItems(lines: ExactLine[]): OrderItem[] {
  const grosses = roundPreservingSum(lines.map((line) => line.gross))
  const taxes = roundPreservingSum(lines.map((line) => line.tax))
  return lines.map((line, index) => {
    const gross = grosses[index]
    const tax = taxes[index]
    const net = gross - tax
    const field = `ecr2Naa.order.items.${index}`
    return {
      ...(line.itemNo ? { itemNo: line.itemNo } : {}),
      reference: line.reference,
      ...(line.name ? { name: line.name } : {}),
      quantity: line.quantity,
      // The line totals are exact; a unit price that does not divide evenly is rounded.
      unitPrice: toHundredths(roundMinor(new BigNumber(net.toString()).div(line.quantity)), `${field}.unitPrice`),
      // Two implicit decimals: 22% is 2200.
      taxRate: toHundredths(roundMinor(line.taxRate.times(100)), `${field}.taxRate`),
      taxAmount: toHundredths(tax, `${field}.taxAmount`),
      grossTotalAmount: toHundredths(gross, `${field}.grossTotalAmount`),
      netTotalAmount: toHundredths(net, `${field}.netTotalAmount`),
    }
  })
}

/**
 * The VAT of the cart, in minor units, for a session of `totalMinor`. A session for another
 * amount than the cart's total (a split payment) carries VAT in the cart's proportion.
 */
function vatMinor(
  totalMinor: bigint,
  cart: CartContext,
  lines: ExactLine[],
  toMinor: (amount: AmountInput, field: string) => BigNumber,
): bigint {
  const cartVat =
    cart.tax_total === null || cart.tax_total === undefined
      ? lines.reduce((sum, line) => sum.plus(line.tax), new BigNumber(0))
      : toMinor(cart.tax_total, "nexi_cart.tax_total")
  const cartTotal = cart.total === null || cart.total === undefined ? undefined : toMinor(cart.total, "nexi_cart.total")
  const scaled =
    cartTotal && !cartTotal.isZero() && !cartTotal.isEqualTo(totalMinor.toString())
      ? cartVat.times(totalMinor.toString()).div(cartTotal)
      : cartVat
  const vat = roundMinor(scaled)
  if (vat < 0n) return 0n
  return vat > totalMinor ? totalMinor : vat
}

export function buildPurchase(input: { totalMinor: string; currencyCode: string; cart?: CartContext }): Purchase {
  const currencyCode = input.currencyCode.toUpperCase()
  const totalMinor = BigInt(input.totalMinor)
  const exponent = currencyExponent(currencyCode)
  const toMinor = (amount: AmountInput, field: string) => toDecimal(amount, field).shiftedBy(exponent)
  const { cart } = input
  const lines = cart ? cart.items.map((line) => exactLine(line, toMinor)) : []
  const shipping = cart ? exactShippingLine(cart, toMinor) : undefined
  if (shipping) lines.push(shipping)
  const vat = cart ? vatMinor(totalMinor, cart, lines, toMinor) : 0n
  const purchaseAmount: ApmAmount = {
    currencyCode,
    nominalAmount: toHundredths(totalMinor - vat, "purchaseAmount.nominalAmount"),
    vatAmount: toHundredths(vat, "purchaseAmount.vatAmount"),
    totalAmount: toHundredths(totalMinor, "purchaseAmount.totalAmount"),
  }
  if (lines.length === 0) return { purchaseAmount }
  const items = toOrderItems(lines)
  const orderTotal = items.reduce((sum, item) => sum + BigInt(item.grossTotalAmount ?? 0), 0n)
  return {
    purchaseAmount,
    order: {
      items,
      amount: toHundredths(orderTotal, "ecr2Naa.order.amount"),
      currency: currencyCode,
      ...(cart?.cart_id ? { reference: cart.cart_id } : {}),
    },
  }
}

/** Whole minor units: (a / b) rounded half-up, for non-negative a and positive b. */
function divideHalfUp(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b)
}

/**
 * A refund's purchase amount: `refundMinor` split into nominal and VAT in the original
 * payment's proportion. Computed on the running total of refunds, so however the payment is
 * refunded in parts, the refunds' VAT adds up to the payment's VAT once all is refunded.
 */
export function refundPurchaseAmount(input: {
  refundMinor: bigint
  original: ApmAmount
  refundedBefore: { totalMinor: bigint; vatMinor: bigint }
}): ApmAmount {
  const { refundMinor, original, refundedBefore } = input
  const originalTotal = BigInt(original.totalAmount)
  const vatAfter =
    originalTotal === 0n
      ? 0n
      : divideHalfUp((refundedBefore.totalMinor + refundMinor) * BigInt(original.vatAmount), originalTotal)
  let vat = vatAfter - refundedBefore.vatMinor
  if (vat < 0n) vat = 0n
  if (vat > refundMinor) vat = refundMinor
  return {
    currencyCode: original.currencyCode,
    nominalAmount: toHundredths(refundMinor - vat, "purchaseAmount.nominalAmount"),
    vatAmount: toHundredths(vat, "purchaseAmount.vatAmount"),
    totalAmount: toHundredths(refundMinor, "purchaseAmount.totalAmount"),
  }
}
