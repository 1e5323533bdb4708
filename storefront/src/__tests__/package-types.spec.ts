/**
 * Medusa's Next.js starters type-check with `"moduleResolution": "node"`, which ignores `exports`:
 * there, `types` and `typesVersions` are what find the kit's declarations, so they must name the
 * same files as `exports` does.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"))

describe("the kit's declarations for the older module resolution", () => {
  it("names the main entry's declarations in types", () => {
    expect(manifest.types).toBe(manifest.exports["."].types)
  })

  it("maps the react entry point to the declarations exports names", () => {
    expect(manifest.typesVersions["*"].react).toEqual([manifest.exports["./react"].types])
  })
})
