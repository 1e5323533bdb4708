/**
 * The logged-in customer, kept as a storefront without cookies keeps one: Medusa's emailpass
 * login (POST /auth/customer/emailpass) answers a token, kept in this browser's localStorage;
 * store-api.js sends it as `Authorization: Bearer` on every call. Without a token the shopper
 * is a guest, and nothing here calls the store.
 */
import { remembered } from "./cart-store.js"
import { StoreApiError } from "./store-api.js"

const TOKEN_KEY = "nexi-demo-customer-token"

export const customerToken = () => localStorage.getItem(TOKEN_KEY)
export const isLoggedIn = () => Boolean(customerToken())

/** Logs in; the open cart becomes the customer's (POST /store/carts/{id}/customer), as Medusa's starter does. */
export async function logIn(api, email, password) {
  const { token } = await api.post("/auth/customer/emailpass", { email, password })
  localStorage.setItem(TOKEN_KEY, token)
  const cartId = remembered.cartId()
  if (!cartId) return
  try {
    await api.post(`/store/carts/${encodeURIComponent(cartId)}/customer`)
  } catch {
    // A cart that cannot be the customer's (completed meanwhile): they start a new one.
    remembered.forgetCart()
  }
}

/** The token is the whole login: forgetting it logs out. The cart was the customer's, so it goes too. */
export function logOut() {
  localStorage.removeItem(TOKEN_KEY)
  remembered.forgetCart()
}

/** The logged-in customer (GET /store/customers/me), or undefined for a guest or an expired login. */
export async function currentCustomer(api) {
  if (!isLoggedIn()) return undefined
  try {
    return (await api.get("/store/customers/me")).customer
  } catch (error) {
    if (!(error instanceof StoreApiError) || error.status !== 401) throw error
    localStorage.removeItem(TOKEN_KEY)
    return undefined
  }
}
