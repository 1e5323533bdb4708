/**
 * Amounts as the store API gives them (major units) shown with their currency's number of
 * decimals: Intl knows ISO 4217's minor units, so EUR shows two decimals and JPY none. This is
 * formatting only; every amount is computed by Medusa.
 */
const formatters = new Map()

export function formatMoney(amount, currencyCode) {
  const currency = String(currencyCode).toUpperCase()
  if (!formatters.has(currency)) {
    formatters.set(currency, new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "code" }))
  }
  return formatters.get(currency).format(Number(amount))
}
