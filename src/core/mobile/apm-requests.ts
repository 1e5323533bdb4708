/**
 * The bodies the mobile core sends to the service, pure, so every field can be checked in a unit
 * test without it:
 * - a payment's start, from what Medusa and the cart snapshot know;
 * - the refunds and reversals after it. The service's idempotency replays an answer only for the
 *   identical request under the same key, and a write whose answer was lost is settled exactly
 *   that way, possibly much later and from another code path (the next refund, the
 *   reconciliation job). So a follow-up's body must be rebuildable from what is kept: the payment
 *   as it was sent, and the ledger's record of the writes before it.
 */
import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { ApmAmount, ApmMethod, Consumer, ExtendedEnvelope, InitializeRequest } from "../../apm/schemas"
import { toIso6391Language } from "../../i18n/languages"
import { requestedLanguage } from "../../i18n/page-language"
import type { MoneyWrite } from "../../modules/nexi-ledger/types"
import type { AddressSnapshot, CartContext } from "../cart-context"
import { SCHEME_WITH_LOCALE_PROPERTIES } from "../provider-ids"
import { type Purchase, refundPurchaseAmount } from "./purchase-amounts"

export interface PaymentRequestInput {
  method: ApmMethod
  merchantId: string
  sessionId: string
  consumer: Consumer
  purchase: Purchase
  cart?: CartContext
  /** `data.language` as the storefront sent it (docs/storefront.md, "Mobile payments"). */
  requestedLanguage?: unknown
}

function fullName(person: { first_name?: string | null; last_name?: string | null } | null | undefined): string {
  return [person?.first_name, person?.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ")
}

/** consumer.name is required: the address name, then the customer's, then the e-mail address. */
export function consumerName(cart: CartContext | undefined, customer: PaymentCustomerDTO | undefined): string {
  const fromAddress = (address: AddressSnapshot | undefined) => fullName(address) || address?.company?.trim()
  return (
    fromAddress(cart?.billing_address) ||
    fromAddress(cart?.shipping_address) ||
    fullName(customer) ||
    cart?.email?.trim() ||
    customer?.email?.trim() ||
    "Customer"
  )
}

/**
 * The shopper's language as the service takes it ("it"): the one the storefront asked for in
 * `data.language`, else the request's preferred one (the snapshot's locale). A requested value
 * that is no language tag was refused by the store route; from another caller it is passed over.
 */
function languageOf(requested: unknown, cart: CartContext | undefined): string | undefined {
  const tag = requestedLanguage(requested) === undefined ? cart?.locale : String(requested)
  return toIso6391Language(tag)
}

function countryOf(cart: CartContext | undefined): string | undefined {
  const code = (cart?.billing_address?.country_code ?? cart?.shipping_address?.country_code)?.trim().toUpperCase()
  return code && /^[A-Z]{2}$/.test(code) ? code : undefined
}

/** Both members of a property are required, so a value the cart does not know is left out. */
function localeProperties(
  lang: string | undefined,
  cart: CartContext | undefined,
): InitializeRequest["additionalProperties"] {
  const properties = [
    { key: "lang", value: lang },
    { key: "country", value: countryOf(cart) },
  ].filter((property): property is { key: string; value: string } => Boolean(property.value))
  return properties.length ? properties : undefined
}

export function buildPaymentRequest(input: PaymentRequestInput): InitializeRequest {
  const { cart, purchase } = input
  const lang = languageOf(input.requestedLanguage, cart)
  const additionalProperties = input.method === SCHEME_WITH_LOCALE_PROPERTIES ? localeProperties(lang, cart) : undefined
  return {
    merchantId: input.merchantId,
    method: input.method,
    purchaseAmount: purchase.purchaseAmount,
    consumer: input.consumer,
    ecr2Naa: {
      ver: "1.0",
      // The session id on the transaction lets any transaction be traced back to its session.
      reference: input.sessionId,
      ...(lang ? { lang } : {}),
      ...(purchase.order ? { order: purchase.order } : {}),
    },
    ...(additionalProperties ? { additionalProperties } : {}),
  }
}

/** What a refund or reversal repeats of the payment it acts on. */
export interface OriginalPayment {
  transactionId: string
  amount: ApmAmount
  consumer: Consumer
}

export interface Sender {
  merchantId: string
  method: ApmMethod
}

export interface RefundTotals {
  totalMinor: bigint
  vatMinor: bigint
}

/** Only the members the request defines: a loose answer's extra members would change the body. */
export function originalFromTransaction(
  transactionId: string,
  envelope: ExtendedEnvelope,
): OriginalPayment | undefined {
  const transaction = envelope.response?.request?.transaction
  if (!transaction?.consumer) return undefined
  const { currencyCode, vatAmount, nominalAmount, totalAmount } = transaction.amount
  return {
    transactionId,
    amount: { currencyCode, vatAmount, nominalAmount, totalAmount },
    consumer: { consumerId: transaction.consumer.consumerId, name: transaction.consumer.name },
  }
}

/** A refund of `refundMinor` after the refunds `before`, or a reversal of the whole payment with its terminal reference. */
export function followUpRequest(
  sender: Sender,
  original: OriginalPayment,
  what: { refundMinor: bigint; before: RefundTotals } | { terminalReference: string },
): InitializeRequest {
  return {
    merchantId: sender.merchantId,
    method: sender.method,
    purchaseAmount:
      "terminalReference" in what
        ? original.amount
        : refundPurchaseAmount({
            refundMinor: what.refundMinor,
            original: original.amount,
            refundedBefore: what.before,
          }),
    consumer: original.consumer,
    originalReference: original.transactionId,
    ...("terminalReference" in what ? { terminalReference: what.terminalReference } : {}),
  }
}

/**
 * The running totals before the write with `key`, and the VAT each executed refund carried.
 * Refunds the service made count, claimed by Medusa or not, in the ledger's order: a write is
 * sent only once every write before it is settled, so this set never changes under a write
 * and its body can be rebuilt. `floor` holds totals the ledger may not know (refunds sent
 * before the ledger existed, as the payment data counts them); the larger total wins.
 */
export function refundsBefore(
  writes: MoneyWrite[],
  key: string,
  original: ApmAmount,
  floor: RefundTotals = { totalMinor: 0n, vatMinor: 0n },
): { before: RefundTotals; vatOf: Map<string, bigint> } {
  const own = writes.findIndex((write) => write.idempotency_key === key)
  const earlier = own === -1 ? writes : writes.slice(0, own)
  const vatOf = new Map<string, bigint>()
  let totals: RefundTotals = { totalMinor: 0n, vatMinor: 0n }
  for (const write of earlier) {
    if (write.kind !== "apm_refund" || write.outcome !== "executed") continue
    const refundMinor = BigInt(write.amount_minor)
    const vat = BigInt(refundPurchaseAmount({ refundMinor, original, refundedBefore: totals }).vatAmount)
    vatOf.set(write.id, vat)
    totals = { totalMinor: totals.totalMinor + refundMinor, vatMinor: totals.vatMinor + vat }
  }
  return { before: floor.totalMinor > totals.totalMinor ? floor : totals, vatOf }
}
