/**
 * The mobile method and number chosen on the payment step, kept in the tab (sessionStorage) for
 * the review step's button: a mobile method's session is created by that button, never earlier
 * (docs/storefront.md, "Mobile payments"), so until then the cart has nothing to hold them.
 */
export interface MobileChoice {
  providerId: string
  mobileNumber: string
}

const keyOf = (cartId: string) => `nexi-mobile-choice:${cartId}`

export function rememberMobileChoice(cartId: string, choice: MobileChoice | null): void {
  if (choice) sessionStorage.setItem(keyOf(cartId), JSON.stringify(choice))
  else sessionStorage.removeItem(keyOf(cartId))
}

export function mobileChoiceOf(cartId: string): MobileChoice | null {
  const stored = sessionStorage.getItem(keyOf(cartId))
  return stored ? (JSON.parse(stored) as MobileChoice) : null
}
