/**
 * The test storefronts prove the kit in a Next.js app only while they use nothing such an app
 * lacks: the kit, the js-sdk (and its types), Next.js and React, and their own modules. The
 * starter-shaped one (browser-tests/starter-storefront) reaches its modules through the
 * starters' path aliases; the plain app (browser-tests/plain-next-app) through relative paths
 * only, with no alias in its tsconfig.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"

const TESTS = join(__dirname, "..", "..", "..", "browser-tests")
const IMPORT = /^\s*(?:import|export)\b[^"']*?\bfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm
const PACKAGES = [
  /^medusa-payment-nexi-storefront(\/react)?$/,
  /^@medusajs\/js-sdk$/,
  /^@medusajs\/types$/,
  /^next(\/.*)?$/,
  /^react$/,
  /^\.\.?\//,
]

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", ".next"].includes(entry.name)) return []
    const path = join(folder, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Each import of the app's sources that no allowed pattern matches, named by its file. */
function importsOutside(root: string, allowed: RegExp[]): string[] {
  return sourcesUnder(root).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2])
      .filter((specifier) => !allowed.some((pattern) => pattern.test(specifier)))
      .map((specifier) => `${relative(root, file)} imports ${specifier}`),
  )
}

it("the starter-shaped storefront imports only the kit, the js-sdk, Next.js, React and its own modules", () => {
  const root = join(TESTS, "starter-storefront", "src")
  expect(sourcesUnder(root).map((file) => relative(root, file))).toContain("lib/data/nexi.ts")
  expect(importsOutside(root, [...PACKAGES, /^@lib\//, /^@modules\//])).toEqual([])
})

it("the plain Next.js app imports only the kit, the js-sdk, Next.js, React and its own modules by relative paths", () => {
  const root = join(TESTS, "plain-next-app")
  expect(sourcesUnder(root).map((file) => relative(root, file))).toContain("lib/nexi.ts")
  expect(importsOutside(root, PACKAGES)).toEqual([])
  const { compilerOptions } = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8"))
  expect(compilerOptions).not.toHaveProperty("paths")
  expect(compilerOptions).not.toHaveProperty("baseUrl")
})
