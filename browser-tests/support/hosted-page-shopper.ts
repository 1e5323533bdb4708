/**
 * The shopper on the simulator's hosted page, for the Next.js storefronts' tests: the
 * simulator's test cards (an approved one, one with a 3-D Secure challenge, a declined one;
 * typed on the hosted page or in the gateway's fields), the hosted page's card form, and the
 * store's orders a payment must add exactly one to.
 */
import type { Page } from "playwright-core"
import type { AdminCall } from "./starter-shop"

export interface TestCard {
  pan: string
  expiry: string
  cvv: string
}

export const APPROVED_CARD: TestCard = { pan: "4999 3402 6197 7289", expiry: "12/30", cvv: "663" }
export const CHALLENGE_CARD: TestCard = { pan: "4349 9401 9900 4549", expiry: "12/30", cvv: "396" }
export const DECLINED_CARD: TestCard = { pan: "5515 9318 5585 8729", expiry: "12/30", cvv: "123" }

export async function fillCard(page: Page, card: TestCard): Promise<void> {
  await page.fill("#pan", card.pan)
  await page.fill("#expiry", card.expiry)
  await page.fill("#cvv", card.cvv)
  await page.fill("#holder", "Giulia Rossi")
}

/** Every order of the store, newest first: a test that pays once must add exactly one. */
export async function allOrderIds(admin: AdminCall): Promise<string[]> {
  const { orders } = await admin<{ orders: Array<{ id: string }> }>(
    "GET",
    "/admin/orders?fields=id&limit=100&order=-created_at",
  )
  return orders.map((order) => order.id)
}
