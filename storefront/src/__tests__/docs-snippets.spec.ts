/**
 * docs/storefront.md is the one source of the storefront integration's code, for Medusa's
 * Next.js starters and for a plain Next.js app. Each of its code blocks headed by a file of the
 * starter-shaped test storefront (`// src/lib/data/nexi.ts`) must be that file's text, whole or
 * a contiguous part, verbatim; each headed by a file of the plain app (`// lib/nexi.ts`, no
 * `src/`) must be that whole file, and the plain app has no other file that uses the kit or
 * those files' Nexi actions, so its Nexi code is exactly the doc's. The browser tests run both
 * (browser-tests/starter-storefront, browser-tests/plain-next-app), so a snippet that drifts
 * from tested code fails here, naming the file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"

const REPO = join(__dirname, "..", "..", "..")
const APP = join(REPO, "browser-tests", "starter-storefront")
const PLAIN_APP = join(REPO, "browser-tests", "plain-next-app")
const DOC = readFileSync(join(REPO, "docs", "storefront.md"), "utf8")
const FENCE = /^```(?:ts|tsx)\n([\s\S]*?)^```$/gm
const HEADER = /^\/\/ ((?:src|app|lib)\/\S+)\n/

interface Snippet {
  file: string
  body: string
}

const allSnippets: Snippet[] = [...DOC.matchAll(FENCE)].flatMap(([, block]) => {
  const header = HEADER.exec(block)
  return header ? [{ file: header[1], body: block.slice(header[0].length) }] : []
})
const snippets = allSnippets.filter((snippet) => snippet.file.startsWith("src/"))
const plainSnippets = allSnippets.filter((snippet) => !snippet.file.startsWith("src/"))

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", ".next"].includes(entry.name)) return []
    const path = join(folder, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

describe("docs/storefront.md's starter snippets", () => {
  it("quote the files of the starter integration", () => {
    expect(new Set(snippets.map((snippet) => snippet.file))).toEqual(
      new Set([
        "src/lib/config.ts",
        "src/lib/constants.tsx",
        "src/lib/data/cart.ts",
        "src/lib/data/nexi.ts",
        "src/lib/data/nexi-mobile.ts",
        "src/modules/checkout/mobile-choice.ts",
        "src/modules/checkout/components/payment/index.tsx",
        "src/modules/checkout/components/payment-button/index.tsx",
        "src/modules/checkout/components/failure.tsx",
        "src/app/[countryCode]/(checkout)/checkout/page.tsx",
        "src/modules/checkout/components/refresh-with-cookies.tsx",
        "src/app/[countryCode]/(checkout)/checkout/nexi/result/page.tsx",
        "src/app/[countryCode]/(checkout)/checkout/nexi/result/nexi-result.tsx",
        "src/app/[countryCode]/(checkout)/checkout/nexi/mobile/page.tsx",
        "src/app/[countryCode]/(checkout)/checkout/nexi/mobile/nexi-mobile-wait.tsx",
        "src/modules/account/components/nexi-saved-cards.tsx",
        "src/app/[countryCode]/(main)/nexi/payment-link/page.tsx",
        "src/lib/nexi-card-fields.ts",
        "src/modules/checkout/components/nexi-card-fields/index.tsx",
        "src/middleware.ts",
      ]),
    )
  })

  it.each(snippets.map((snippet) => [snippet.file, snippet]))(
    "%s is verbatim in the test storefront",
    (file, snippet) => {
      const path = join(APP, file)
      expect(existsSync(path)).toBe(true)
      const source = readFileSync(path, "utf8")
      // A failure shows the snippet's first line that the file does not have.
      const missing = snippet.body.split("\n").find((line) => !source.includes(line))
      expect(missing).toBeUndefined()
      expect(source.includes(snippet.body)).toBe(true)
    },
  )
})

describe("docs/storefront.md's plain Next.js app", () => {
  it("shows the files of the plain app's Nexi code", () => {
    expect(new Set(plainSnippets.map((snippet) => snippet.file))).toEqual(
      new Set([
        "lib/config.ts",
        "lib/cookies.ts",
        "lib/cart.ts",
        "lib/nexi.ts",
        "app/checkout/page.tsx",
        "app/checkout/pay-with-card.tsx",
        "app/checkout/refresh-with-cookies.tsx",
        "app/checkout/nexi/result/page.tsx",
        "app/checkout/nexi/result/nexi-result.tsx",
      ]),
    )
  })

  it.each(plainSnippets.map((snippet) => [snippet.file, snippet]))(
    "%s is the plain app's whole file",
    (file, snippet) => {
      const path = join(PLAIN_APP, file)
      expect(existsSync(path)).toBe(true)
      const source = readFileSync(path, "utf8")
      const differing = snippet.body.split("\n").find((line, index) => source.split("\n")[index] !== line)
      expect(differing).toBeUndefined()
      expect(source).toBe(snippet.body)
    },
  )

  it("has no other file that uses the kit or calls the Nexi actions: the app's own files are not payment code", () => {
    const shown = new Set(plainSnippets.map((snippet) => snippet.file))
    const paymentCode = sourcesUnder(PLAIN_APP)
      .map((file) => relative(PLAIN_APP, file))
      .filter((file) =>
        /from "(medusa-payment-nexi-storefront[^"]*|[./]*\/lib\/nexi|\.\/nexi)"/.test(
          readFileSync(join(PLAIN_APP, file), "utf8"),
        ),
      )
    expect(paymentCode.length).toBeGreaterThan(0)
    expect(paymentCode.filter((file) => !shown.has(file))).toEqual([])
  })
})
