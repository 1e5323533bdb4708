/**
 * The bench takes the plugin's modules from the build by path (`built("core/medusa-records")`),
 * which neither the type checker nor the test suite follows: a module moved in src/ left the
 * bench failing for days ("PaymentRecords is not a constructor") with every suite green. Each
 * name the bench takes must be exported by the source file at that path.
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"

const ROOT = path.join(__dirname, "../../..")
const BENCH = path.join(ROOT, "scripts/bench")

function benchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" || entry.name === "store" ? [] : benchFiles(full)
    return entry.name.endsWith(".js") ? [full] : []
  })
}

/** Every `const { a, b: c } = built("x")` of the bench: the module path and the names taken from it. */
function namesTaken(): Array<{ file: string; module: string; name: string }> {
  const taken: Array<{ file: string; module: string; name: string }> = []
  for (const file of benchFiles(BENCH)) {
    for (const [, names, module] of readFileSync(file, "utf8").matchAll(/const \{([^}]+)\} = built\("([^"]+)"\)/g)) {
      for (const name of names
        .split(",")
        .map((part) => part.split(":")[0].trim())
        .filter(Boolean))
        taken.push({ file: path.relative(ROOT, file), module, name })
    }
  }
  return taken
}

function exportsName(source: string, name: string): boolean {
  const declared = new RegExp(`export (?:abstract )?(?:async )?(?:function|class|const|let) ${name}\\b`)
  const listed = new RegExp(`export \\{[^}]*\\b${name}\\b[^}]*\\}`)
  return declared.test(source) || listed.test(source)
}

describe("the bench's modules from the build", () => {
  const taken = namesTaken()

  it("finds what the bench takes", () => {
    expect(taken.map(({ module, name }) => `${module} ${name}`)).toContain("core/medusa-records PaymentRecords")
  })

  it("takes only names the source file at that path exports", () => {
    const missing = taken.filter(({ module, name }) => {
      let source: string
      try {
        source = readFileSync(path.join(ROOT, "src", `${module}.ts`), "utf8")
      } catch {
        return true
      }
      return !exportsName(source, name)
    })
    expect(missing).toEqual([])
  })
})
