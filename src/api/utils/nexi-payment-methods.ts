/**
 * How the storefront shows each Nexi provider: a human name, a logo and its kind (a card
 * on the hosted page, or a mobile payment approved in the shopper's app).
 *
 * Logos: the gateway's GET /payment_methods gives an imageLink per card circuit, but asking
 * it on every checkout page costs a gateway call; a small neutral icon ships instead, and a
 * store gives each scheme its own logo with options.apm.logoUrls.
 */

import { WALLET_NAMES } from "../../core/card/wallet-choice"
import type { NexiOptions } from "../../core/options"
import { apmMethodOfProvider, apmSchemeName } from "../../core/provider-ids"
import type { Wallet } from "../../gateway/schemas"

export interface NexiPaymentMethod {
  provider_id: string
  kind: "card" | "mobile"
  name: string
  logo_url: string
  /**
   * A card method's wallets the store offers (its `wallets` option): the storefront may show
   * each as a way to pay, and starts the card session with `data.wallet` set to `wallet`.
   */
  wallets?: Array<{ wallet: Wallet; name: string }>
}

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`
}

const CARD_LOGO = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40"><rect x="1" y="1" width="62" height="38" rx="6" fill="#f2f4f7" stroke="#98a2b3"/><rect x="1" y="9" width="62" height="7" fill="#475467"/><rect x="8" y="25" width="20" height="5" rx="1" fill="#98a2b3"/></svg>',
)

const MOBILE_LOGO = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40"><rect x="22" y="2" width="20" height="36" rx="4" fill="#f2f4f7" stroke="#475467" stroke-width="2"/><circle cx="32" cy="32" r="2" fill="#475467"/></svg>',
)

const CARD_METHOD_NAME = "Card (Visa, Mastercard, Maestro, Amex)"

export function describeNexiPaymentMethod(providerId: string, options: NexiOptions | undefined): NexiPaymentMethod {
  const method = apmMethodOfProvider(providerId)
  if (!method) {
    const wallets = (options?.wallets ?? []).map((wallet) => ({ wallet, name: WALLET_NAMES[wallet] }))
    return { provider_id: providerId, kind: "card", name: CARD_METHOD_NAME, logo_url: CARD_LOGO, wallets }
  }
  return {
    provider_id: providerId,
    kind: "mobile",
    name: apmSchemeName(method, options?.apm),
    logo_url: options?.apm?.logoUrls?.[method] ?? MOBILE_LOGO,
  }
}
