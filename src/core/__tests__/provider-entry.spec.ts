import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { testCradle } from "../../../test-support/provider-cradle"
import { InvalidOptionsError } from "../options"
import { type ProviderCradle, ProviderEntry } from "../store-entries"

const OPTIONS = {
  apiKey: "key",
  resultUrl: "https://shop.example/checkout/result?cart_id={cart_id}",
  cancelUrl: "https://shop.example/checkout?step=payment&cart_id={cart_id}",
  notificationUrl: "https://api.shop.example",
}

/** A cradle as awilix gives one: reading a name nobody registered throws. Medusa always registers a logger. */
function strictCradle(registrations: Record<string, unknown>): ProviderCradle {
  const registered: Record<string, unknown> = { logger: undefined, ...registrations }
  return new Proxy(registered, {
    get(target, name) {
      if (typeof name === "string" && !(name in target)) throw new Error(`Could not resolve '${name}'`)
      return target[name as string]
    },
  })
}

function configWith(entries: Array<{ id: string; options: unknown }>) {
  return { modules: { payment: { options: { providers: entries.map((entry) => ({ resolve: "x", ...entry })) } } } }
}

describe("ProviderEntry", () => {
  it("is the entry whose options are the very object Medusa passed, and names the ledger's key after it", () => {
    const italy = { ...OPTIONS }
    const config = configWith([
      { id: "nexi", options: { ...OPTIONS } },
      { id: "nexi-it", options: italy },
    ])
    const entry = new ProviderEntry(strictCradle({ [ContainerRegistrationKeys.CONFIG_MODULE]: config }), italy, "nexi")
    expect(entry.entryId).toBe("nexi-it")
    expect(entry.providerKey).toBe("nexi_nexi-it")
  })

  it("is the default entry when the cradle holds no configuration (unit tests, the benchmark)", () => {
    const entry = new ProviderEntry(strictCradle({}), { ...OPTIONS }, "nexi-apm-psp-b")
    expect(entry.entryId).toBe("nexi")
    expect(entry.providerKey).toBe("nexi-apm-psp-b_nexi")
  })

  it("refuses options that do not parse, naming the field", () => {
    expect(() => new ProviderEntry(strictCradle({}), { ...OPTIONS, apiKey: "" }, "nexi")).toThrow(InvalidOptionsError)
    expect(() => new ProviderEntry(strictCradle({}), { ...OPTIONS, apiKey: "" }, "nexi")).toThrow(/apiKey/)
  })

  it("says which medusa-config line is missing when the payment module cannot reach the ledger", () => {
    const entry = new ProviderEntry(strictCradle({}), { ...OPTIONS }, "nexi")
    expect(() => entry.ledger("refund the payment")).toThrow(
      /Could not refund the payment: the Nexi ledger is not available to the payment module\. Add `dependencies: \["nexi_ledger"\]`/,
    )
    expect(() => entry.savedCards("list the saved cards")).toThrow(/Could not list the saved cards/)
  })

  it("reaches the ledger, and the saved cards in the same module, at each use", () => {
    const cradle = testCradle()
    const entry = new ProviderEntry(cradle, { ...OPTIONS }, "nexi")
    expect(entry.ledger("capture")).toBe(cradle.ledger)
    expect(entry.savedCards("list")).toBe(cradle.ledger)
  })
})
