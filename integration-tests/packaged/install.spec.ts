/**
 * Catches packaging mistakes: the package is packed with `npm pack` (so only the files a
 * store would download are there), unpacked into a store's node_modules, and that store
 * boots with the plugin and the providers loaded by package name, through the exports.
 * Requires `npm run build` first (the test:integration script does it).
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { simulatorForSuite } from "../support/simulator"
import { createRegion, seedStoreBasics, storeHeaders } from "../support/store"

jest.setTimeout(180_000)

const root = path.resolve(__dirname, "..", "..")
const storeDir = path.join(root, "integration-tests", "packaged-store")
const installDir = path.join(storeDir, "node_modules", "medusa-payment-nexi")

function installPackedPackage(): string[] {
  if (!fs.existsSync(path.join(root, ".medusa", "server", "src", "providers", "nexi", "index.js"))) {
    throw new Error("The package is not built: run `npm run build` before this suite (npm test does).")
  }
  const packDir = fs.mkdtempSync(path.join(root, ".cache", "pack-"))
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: root, encoding: "utf8" }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>
  fs.rmSync(installDir, { recursive: true, force: true })
  fs.mkdirSync(installDir, { recursive: true })
  execFileSync("tar", ["-xzf", path.join(packDir, packed.filename), "-C", installDir, "--strip-components=1"])
  fs.rmSync(packDir, { recursive: true, force: true })
  return packed.files.map((file) => file.path)
}

fs.mkdirSync(path.join(root, ".cache"), { recursive: true })
const packedFiles = installPackedPackage()
const simulator = simulatorForSuite()

describe("the packed package", () => {
  it("ships the built code and nothing of the development tree", () => {
    expect(packedFiles).toContain(".medusa/server/src/providers/nexi/index.js")
    expect(packedFiles).toContain(".medusa/server/src/simulator/index.js")
    expect(packedFiles).toContain(".medusa/server/src/simulator/cli.js")
    // What the README links to, so its links work in an installed package too.
    for (const file of ["README.md", "LICENSE", "CONTRIBUTING.md", "docs/simulator.md", "docs/storefront.md", "docs/contract/gateway.md"]) {
      expect(packedFiles).toContain(file)
    }
    // Every file outside the build is documentation, package.json or the license.
    const outsideTheBuild = packedFiles.filter((file) => !file.startsWith(".medusa/server/"))
    expect(outsideTheBuild.filter((file) => !/^(docs\/.*\.md|README\.md|CONTRIBUTING\.md|LICENSE|package\.json)$/.test(file))).toEqual([])
    const unwanted = packedFiles.filter((file) =>
      /(__tests__|\.spec\.|integration-tests|browser-tests|medusa-config|simulator-state|\.env|\.ts$)/.test(file),
    )
    expect(unwanted).toEqual([])
  })

  it("exports a simulator that starts from the installed package", async () => {
    const installed = require(require.resolve("medusa-payment-nexi/simulator", { paths: [storeDir] }))
    const running = await installed.startSimulator({ port: 0 })
    const answer = await fetch(`${running.gatewayUrl}/payment_methods`, {
      headers: { "x-api-key": "5d952446-9004-4023-9eae-a527a152846b", "correlation-id": crypto.randomUUID() },
    })
    expect(answer.status).toBe(200)
    await running.close()
  })
})

medusaIntegrationTestRunner({
  cwd: storeDir,
  testSuite: ({ api, getContainer }) => {
    it("loads both provider families and the plugin's store routes from the installed package", async () => {
      expect(simulator.url).toMatch(/^http/)
      const container = getContainer()
      const { publishableKey } = await seedStoreBasics(container)
      const region = await createRegion(container, { name: "Italy", currency_code: "eur", countries: ["it"] })
      const listed = await api.get(`/store/payment-providers?region_id=${region.id}`, storeHeaders(publishableKey))
      const ids = listed.data.payment_providers.map((provider: { id: string }) => provider.id)
      expect(ids).toContain("pp_nexi_nexi")
      expect(ids).toContain("pp_nexi-apm-psp-b_nexi")
      const methods = await api.get(`/store/nexi/payment-methods?region_id=${region.id}`, storeHeaders(publishableKey))
      expect(methods.data.payment_methods.map((method: { provider_id: string }) => method.provider_id)).toContain("pp_nexi_nexi")
    })
  },
})
