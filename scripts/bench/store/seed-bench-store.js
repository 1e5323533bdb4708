/**
 * Seeds the bench store inside Medusa (`medusa exec`, one boot): the demo's store (its
 * seed-script.js, reused as is: EUR and JPY regions with every Nexi provider, products, a
 * publishable key), plus what only the bench needs:
 * - Medusa's system provider (pp_system_default) added to the EUR region, for the baseline
 *   shoppers, who pay with it in the same region, store and server as the Nexi shoppers;
 * - a secret API key, for the admin capture of the round-trip count.
 * Writes the demo's result file with `adminApiKey` added.
 *
 * argv: <result file>
 */
const fs = require("node:fs")
const { Modules } = require("@medusajs/framework/utils")
const { createApiKeysWorkflow, updateRegionsWorkflow } = require("@medusajs/medusa/core-flows")
const seedDemoStore = require("../../demo/seed-script").default

const SYSTEM_PROVIDER = "pp_system_default"
const ADMIN_EMAIL = "bench@nexi-bench.local"

async function seedBenchStore({ container, args }) {
  const [resultFile] = args
  if (!resultFile) throw new Error("usage: medusa exec scripts/bench/store/seed-bench-store.js <result file>")
  await seedDemoStore({ container, args: [resultFile, ADMIN_EMAIL] })
  const store = JSON.parse(fs.readFileSync(resultFile, "utf8"))

  const registered = await container.resolve(Modules.PAYMENT).listPaymentProviders({})
  const nexiProviders = registered.map((provider) => provider.id).filter((id) => id.startsWith("pp_nexi"))
  const euro = store.regions.find((region) => region.currency_code === "eur")
  await updateRegionsWorkflow(container).run({
    input: { selector: { id: euro.id }, update: { payment_providers: [...nexiProviders, SYSTEM_PROVIDER] } },
  })

  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Nexi benchmark", type: "secret", created_by: "nexi-bench" }] },
  })
  fs.writeFileSync(resultFile, `${JSON.stringify({ ...store, adminApiKey: keys[0].token }, null, 2)}\n`)
}

module.exports = { default: seedBenchStore }
