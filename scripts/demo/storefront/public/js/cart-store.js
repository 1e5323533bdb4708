/** The shopper's open cart and chosen region, remembered across pages of this browser. */
const CART_KEY = "nexi-demo-cart-id"
const REGION_KEY = "nexi-demo-region-id"

export const remembered = {
  cartId: () => localStorage.getItem(CART_KEY),
  setCartId: (id) => localStorage.setItem(CART_KEY, id),
  forgetCart: () => localStorage.removeItem(CART_KEY),
  regionId: () => localStorage.getItem(REGION_KEY),
  setRegionId: (id) => localStorage.setItem(REGION_KEY, id),
}
