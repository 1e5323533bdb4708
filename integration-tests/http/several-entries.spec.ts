/**
 * A store with several Nexi entries under ids other than "nexi" (NEXI_TEST_ENTRIES=several in
 * medusa-config.ts: `nexi-it` and `nexi-de`, each its own merchant at the gateway). Each card
 * provider learns its entry id from the store's configuration, so its hosted orders are
 * notified at its own webhook route (/hooks/payment/nexi_<entry id>), the cart completes
 * through that notification, and the plugin's subscriber handles that entry's declines.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { type RunningSimulator, startSimulator } from "../../src/simulator"
import { CARDS, CheckoutKit } from "../support/checkout-kit"
import { SANDBOX_API_KEY, type SimulatorHandle } from "../support/simulator"
import { createCart, eventually, startPaymentSession } from "../support/store"

jest.setTimeout(180_000)

const ENTRIES = [
  { id: "nexi-it", apiKey: "it-merchant-key-0b7e" },
  { id: "nexi-de", apiKey: "de-merchant-key-4c21" },
] as const

// medusa-config.ts reads these when the store boots, after this hook.
const previous = {
  entries: process.env.NEXI_TEST_ENTRIES,
  it: process.env.NEXI_IT_API_KEY,
  de: process.env.NEXI_DE_API_KEY,
}
beforeAll(() => {
  process.env.NEXI_TEST_ENTRIES = "several"
  process.env.NEXI_IT_API_KEY = ENTRIES[0].apiKey
  process.env.NEXI_DE_API_KEY = ENTRIES[1].apiKey
})
afterAll(() => {
  for (const [name, value] of [
    ["NEXI_TEST_ENTRIES", previous.entries],
    ["NEXI_IT_API_KEY", previous.it],
    ["NEXI_DE_API_KEY", previous.de],
  ] as const) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

// The suite's own simulator: one merchant per API key, the default entry's included.
let running: RunningSimulator | undefined
beforeAll(async () => {
  running = await startSimulator({
    port: Number(process.env.NEXI_SIMULATOR_PORT),
    host: "127.0.0.1",
    control: true,
    apiKeys: [SANDBOX_API_KEY, ...ENTRIES.map((entry) => entry.apiKey)],
  })
})
afterAll(async () => {
  await running?.close()
})

async function call<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const answer = await fetch(url, init)
  const text = await answer.text()
  return { status: answer.status, body: (text ? JSON.parse(text) : undefined) as T }
}

/** A gateway order read as the merchant holding `apiKey` would read it. */
function orderAsMerchant(orderId: string, apiKey: string) {
  return call<{ orderStatus?: { order?: { orderId?: string } } }>(`${running!.gatewayUrl}/orders/${orderId}`, {
    headers: { "x-api-key": apiKey, "correlation-id": crypto.randomUUID() },
  })
}

const simulator: SimulatorHandle = {
  get url() {
    return running!.url
  },
  async control(method, path, body) {
    const answer = await call<any>(`${running!.controlUrl}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (answer.status >= 400)
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    return answer.body
  },
  async gateway(path) {
    return (
      await call<any>(`${running!.gatewayUrl}${path}`, {
        headers: { "x-api-key": SANDBOX_API_KEY, "correlation-id": crypto.randomUUID() },
      })
    ).body
  },
  apmTransaction() {
    throw new Error("not used by this suite")
  },
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let container: MedusaContainer
    let kit: CheckoutKit

    beforeEach(async () => {
      container = getContainer()
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, () => container, simulator)
      await kit.seed()
    })

    it("registers a card provider per entry id", async () => {
      const providers = await container.resolve("payment").listPaymentProviders({})
      const ids = providers.map((provider: { id: string }) => provider.id)
      expect(ids).toEqual(expect.arrayContaining(["pp_nexi_nexi", "pp_nexi_nexi-it", "pp_nexi_nexi-de"]))
    })

    it.each(ENTRIES)(
      "completes a cart paid on the hosted page of $id through that entry's notification",
      async ({ id, apiKey }) => {
        const providerId = `pp_nexi_${id}`
        const cart = await createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
        const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, providerId)
        expect(session.status).toBe("pending")
        const orderId = session.data.order_id as string

        // The gateway order lives under this entry's merchant only.
        expect((await orderAsMerchant(orderId, apiKey)).status).toBe(200)
        for (const other of [
          SANDBOX_API_KEY,
          ...ENTRIES.filter((entry) => entry.id !== id).map((entry) => entry.apiKey),
        ]) {
          expect((await orderAsMerchant(orderId, other)).status).toBe(404)
        }

        const paid = await simulator.control<{ result: string; notification: { url: string; status?: number } }>(
          "POST",
          `/hpp/${orderId}/pay`,
          {
            ...CARDS.approved,
            awaitNotification: true,
          },
        )
        expect(new URL(paid.notification.url).pathname).toBe(`/hooks/payment/nexi_${id}`)
        expect(paid.notification.status).toBe(200)

        // Nobody completes the cart but Medusa's webhook subscriber.
        const orders = await eventually(async () => {
          const found = await kit.ordersOfCart(cart.id)
          return found.length ? found : undefined
        })
        expect(orders).toHaveLength(1)
        const [payment] = await eventually(async () => {
          const payments = await kit.paymentsOfOrder(orders[0])
          return payments.length ? payments : undefined
        })
        expect(payment.data.order_id).toBe(orderId)
        expect((await kit.session(session.id)).provider_id).toBe(providerId)
      },
    )

    it("records a decline on a session of another entry (the plugin's subscriber handles every card entry)", async () => {
      const cart = await createCart(api, kit.publishableKey, { regionId: kit.regionId, variantId: kit.variantId })
      const { session } = await startPaymentSession(api, kit.publishableKey, cart.id, "pp_nexi_nexi-de")
      const paid = await simulator.control<{ notification: { url: string } }>(
        "POST",
        `/hpp/${session.data.order_id}/pay`,
        {
          ...CARDS.declined,
          awaitNotification: true,
        },
      )
      expect(new URL(paid.notification.url).pathname).toBe("/hooks/payment/nexi_nexi-de")
      const declined = await eventually(async () => {
        const current = await kit.session(session.id)
        return current.status === "error" ? current : undefined
      })
      expect(declined.data?.reason).toEqual(expect.any(String))
      expect(await kit.ordersOfCart(cart.id)).toHaveLength(0)
    })
  },
})
