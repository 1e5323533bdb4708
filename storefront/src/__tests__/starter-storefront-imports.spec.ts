/**
 * The starter-shaped test storefront (browser-tests/starter-storefront) proves the kit in a
 * starter only while it uses nothing a starter lacks: the kit, the js-sdk (and its types),
 * Next.js and React, and its own modules.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"

const APP_SOURCE = join(__dirname, "..", "..", "..", "browser-tests", "starter-storefront", "src")
const IMPORT = /^\s*(?:import|export)\b[^"']*?\bfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm
const ALLOWED = [
  /^medusa-payment-nexi-storefront(\/react)?$/,
  /^@medusajs\/js-sdk$/,
  /^@medusajs\/types$/,
  /^next(\/.*)?$/,
  /^react$/,
  /^@lib\//,
  /^@modules\//,
  /^\.\.?\//,
]

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

it("imports only the kit, the js-sdk, Next.js, React and its own modules", () => {
  const files = sourcesUnder(APP_SOURCE)
  expect(files.map((file) => relative(APP_SOURCE, file))).toContain("lib/data/nexi.ts")
  const others = files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2])
      .filter((specifier) => !ALLOWED.some((allowed) => allowed.test(specifier)))
      .map((specifier) => `${relative(APP_SOURCE, file)} imports ${specifier}`),
  )
  expect(others).toEqual([])
})
