/** Medusa's amounts as they are, shown with the currency's own decimals: never computed here. */
export function formatAmount(amount: number | null | undefined, currencyCode: string): string {
  return new Intl.NumberFormat("en-GB", {
    style: "currency",
    currency: currencyCode.toUpperCase(),
    currencyDisplay: "code",
  }).format(amount ?? 0)
}
