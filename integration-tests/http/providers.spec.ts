import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createRegion, seedStoreBasics, storeHeaders } from "../support/store"

jest.setTimeout(120_000)

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    describe("payment providers of a region", () => {
      it("lists both Nexi providers for a region that enables them, and none for one that does not", async () => {
        const container = getContainer()
        const { publishableKey } = await seedStoreBasics(container)
        const enabled = await createRegion(container, { name: "Italy", currency_code: "eur", countries: ["it"] })
        const other = await createRegion(container, {
          name: "Elsewhere",
          currency_code: "usd",
          countries: ["us"],
          payment_providers: ["pp_system_default"],
        })

        const listed = await api.get(`/store/payment-providers?region_id=${enabled.id}`, storeHeaders(publishableKey))
        const ids = listed.data.payment_providers.map((provider: { id: string }) => provider.id).sort()
        expect(ids).toEqual(expect.arrayContaining(["pp_nexi_nexi"]))
        expect(ids.some((id: string) => id.startsWith("pp_nexi-apm-"))).toBe(true)

        const none = await api.get(`/store/payment-providers?region_id=${other.id}`, storeHeaders(publishableKey))
        expect(none.data.payment_providers.map((provider: { id: string }) => provider.id)).toEqual([
          "pp_system_default",
        ])
      })
    })
  },
})
