/**
 * A paid card order in the running demo, placed the quick way: the store API as a storefront
 * calls it (the helpers of integration-tests/support/store.ts over fetch) and the hosted page
 * paid through the simulator's control API, which runs the page's own code without a browser.
 * The storefront itself is covered by demo-shopper.spec.ts; the admin tests only need an order
 * (or a draft order, for a MOTO payment).
 */
import type { APIRequestContext } from "playwright-core"
import { CARDS } from "../../integration-tests/support/checkout-kit"
import {
  ADDRESS,
  completeCart,
  createCart,
  NEXI_CARD_PROVIDER,
  startPaymentSession,
  storeHeaders,
} from "../../integration-tests/support/store"
import type { RunningDemo } from "../../scripts/demo/start-demo"

type StoreApi = Parameters<typeof createCart>[0]

export interface PlacedCardOrder {
  orderId: string
  displayId: number
  /** Medusa's order total in major units, as the store API answers it (29.89). */
  total: number
  /** The gateway order the shopper paid. */
  gatewayOrderId: string
}

/** The `{ data, status }` client the store helpers expect, over fetch; a non-2xx answer throws with its body. */
function storeApi(backendUrl: string): StoreApi {
  const send = async (method: string, path: string, body?: unknown, config?: unknown) => {
    const headers = (config as { headers?: Record<string, string> } | undefined)?.headers ?? {}
    const answer = await fetch(`${backendUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await answer.text()
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`)
    return { status: answer.status, data: text ? JSON.parse(text) : undefined }
  }
  return {
    get: (path, config) => send("GET", path, undefined, config),
    post: (path, body, config) => send("POST", path, body, config),
  }
}

/** One unit of the product with `handle`, bought in the region of `currencyCode` with an approved card. */
export async function placeCardOrder(
  demo: RunningDemo,
  handle: string,
  currencyCode = "eur",
): Promise<PlacedCardOrder> {
  const api = storeApi(demo.urls.backend)
  const region = demo.regions.find((candidate) => candidate.currency_code === currencyCode)
  const product = demo.products.find((candidate) => candidate.handle === handle)
  if (!region || !product) throw new Error(`the demo has no ${currencyCode} region or no product "${handle}"`)
  const { data } = await api.get(
    `/store/products/${product.id}?region_id=${region.id}`,
    storeHeaders(demo.publishableKey),
  )

  const cart = await createCart(api, demo.publishableKey, {
    regionId: region.id,
    variantId: data.product.variants[0].id,
  })
  const { session } = await startPaymentSession(api, demo.publishableKey, cart.id, NEXI_CARD_PROVIDER)
  const gatewayOrderId: string = session.data.order_id
  const paid = await fetch(`${demo.urls.simulatorControl}/hpp/${gatewayOrderId}/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CARDS.approved),
  })
  const outcome = (await paid.json()) as { result?: string }
  if (outcome.result !== "AUTHORIZED")
    throw new Error(`the hosted page answered ${paid.status} ${JSON.stringify(outcome)}, not AUTHORIZED`)

  const completed = await completeCart(api, demo.publishableKey, cart.id)
  if (completed.type !== "order") throw new Error(`the cart was not completed: ${JSON.stringify(completed.error)}`)
  return {
    orderId: completed.order.id,
    displayId: completed.order.display_id,
    total: completed.order.total,
    gatewayOrderId,
  }
}

export interface CreatedDraftOrder {
  id: string
  displayId: number
  email: string
}

/**
 * A draft order for one unit of the product with `handle`, made through Medusa's admin API with
 * the signed-in browser's session, as staff would make one for a customer on the phone.
 */
export async function createDraftOrder(
  request: APIRequestContext,
  demo: RunningDemo,
  handle: string,
  email: string,
): Promise<CreatedDraftOrder> {
  const region = demo.regions.find((candidate) => candidate.currency_code === "eur")
  const product = demo.products.find((candidate) => candidate.handle === handle)
  if (!region || !product) throw new Error(`the demo has no eur region or no product "${handle}"`)
  const { data } = await storeApi(demo.urls.backend).get(
    `/store/products/${product.id}?region_id=${region.id}`,
    storeHeaders(demo.publishableKey),
  )
  const answer = await request.post(`${demo.urls.backend}/admin/draft-orders`, {
    data: {
      email,
      region_id: region.id,
      items: [{ variant_id: data.product.variants[0].id, quantity: 1 }],
      shipping_address: ADDRESS,
      billing_address: ADDRESS,
    },
  })
  if (!answer.ok()) throw new Error(`POST /admin/draft-orders answered ${answer.status()}: ${await answer.text()}`)
  const { draft_order } = (await answer.json()) as { draft_order: { id: string; display_id: number } }
  return { id: draft_order.id, displayId: draft_order.display_id, email }
}

/**
 * An order edit as staff make one in the admin, through Medusa's admin API with the signed-in
 * browser's session: one more unit of the order's first item, requested and confirmed.
 */
export async function addOneOfFirstItem(request: APIRequestContext, demo: RunningDemo, orderId: string): Promise<void> {
  const admin = async (method: "GET" | "POST", path: string, data?: unknown) => {
    const url = `${demo.urls.backend}${path}`
    const answer = method === "GET" ? await request.get(url) : await request.post(url, { data: data ?? {} })
    if (!answer.ok()) throw new Error(`${method} ${path} answered ${answer.status()}: ${await answer.text()}`)
    return answer.json()
  }
  const { order } = await admin("GET", `/admin/orders/${orderId}?fields=items.variant_id`)
  await admin("POST", "/admin/order-edits", { order_id: orderId })
  await admin("POST", `/admin/order-edits/${orderId}/items`, {
    items: [{ variant_id: order.items[0].variant_id, quantity: 1 }],
  })
  await admin("POST", `/admin/order-edits/${orderId}/request`)
  await admin("POST", `/admin/order-edits/${orderId}/confirm`)
}
