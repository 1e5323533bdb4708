/**
 * docs/storefront.md is the one source of the starter integration's code: each of its code
 * blocks headed by a file of the starter-shaped test storefront (`// src/lib/data/nexi.ts`) must
 * be that file's text, whole or a contiguous part, verbatim. The browser tests run that
 * storefront (browser-tests/starter-storefront), so a snippet that drifts from tested code
 * fails here, naming the file.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

const REPO = join(__dirname, "..", "..", "..")
const APP = join(REPO, "browser-tests", "starter-storefront")
const DOC = readFileSync(join(REPO, "docs", "storefront.md"), "utf8")
const FENCE = /^```(?:ts|tsx)\n([\s\S]*?)^```$/gm
const HEADER = /^\/\/ (src\/\S+)\n/

interface Snippet {
  file: string
  body: string
}

const snippets: Snippet[] = [...DOC.matchAll(FENCE)].flatMap(([, block]) => {
  const header = HEADER.exec(block)
  return header ? [{ file: header[1], body: block.slice(header[0].length) }] : []
})

describe("docs/storefront.md's starter snippets", () => {
  it("quote the files of the starter integration", () => {
    expect(new Set(snippets.map((snippet) => snippet.file))).toEqual(
      new Set([
        "src/lib/config.ts",
        "src/lib/constants.tsx",
        "src/lib/data/cart.ts",
        "src/lib/data/cookies.ts",
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
