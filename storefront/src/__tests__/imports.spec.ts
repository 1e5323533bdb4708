/**
 * The kit installs where the plugin cannot (Next.js 15, React 19) only while it imports nothing
 * but itself: no Medusa package, nothing of the plugin's src/, and react only in the hooks.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, sep } from "node:path"

const KIT_SOURCE = join(__dirname, "..")
const IMPORT = /^\s*(?:import|export)\b[^"']*?\bfrom\s+["']([^"']+)["']/gm

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "__tests__") return []
    const path = join(folder, entry.name)
    return entry.isDirectory() ? sourcesUnder(path) : entry.name.endsWith(".ts") ? [path] : []
  })
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)].map((match) => match[1])
}

describe("what the kit imports", () => {
  const files = sourcesUnder(KIT_SOURCE)

  it("finds the kit's modules", () => {
    expect(files.map((file) => relative(KIT_SOURCE, file))).toEqual(
      expect.arrayContaining(["index.ts", "react/index.ts"]),
    )
  })

  it("imports only its own modules, and react from the hooks entry point", () => {
    const outside = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => {
          if (specifier.startsWith(".")) return relative(KIT_SOURCE, join(file, "..", specifier)).startsWith("..")
          return !(specifier === "react" && relative(KIT_SOURCE, file).startsWith(`react${sep}`))
        })
        .map((specifier) => `${relative(KIT_SOURCE, file)} imports ${specifier}`),
    )
    expect(outside).toEqual([])
  })
})
