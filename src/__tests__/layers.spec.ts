/**
 * The layers run one way (CONTRIBUTING.md, "Architecture"): what Medusa loads (routes,
 * subscribers, jobs, the admin UI, the payment providers) -> use cases (staff actions,
 * reconciliation) -> the money core -> clients and the ledger -> transport and money. A file may import from
 * its own layer or any layer below, never from one above. This spec reads every source file's
 * relative imports and fails naming each import that climbs.
 */
import fs from "node:fs"
import path from "node:path"

const SRC = path.resolve(__dirname, "..")

/** Each top folder of src/ and its layer: higher numbers may import lower ones. */
const LAYERS: Record<string, number> = {
  api: 6,
  subscribers: 6,
  jobs: 6,
  admin: 6,
  links: 6,
  // The payment providers are doors too: they translate Medusa's provider calls into core calls.
  providers: 6,
  staff: 5,
  shopper: 5,
  reconciliation: 5,
  // The money core: the read model of a gateway order, the one sender, the one sync.
  core: 3,
  gateway: 2,
  apm: 2,
  modules: 2,
  // The simulator is a tool of its own: it speaks the clients' schemas, and nothing imports it.
  simulator: 2,
  http: 1,
  money: 1,
  i18n: 1,
}

const IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)["'](\.[^"']+)["']/g

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "__tests__" || entry.name === "node_modules" ? [] : sourceFiles(full)
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : []
  })
}

function layerOf(file: string): { folder: string; layer: number | undefined } {
  const folder = path.relative(SRC, file).split(path.sep)[0]
  return { folder, layer: LAYERS[folder] }
}

/** Every import in `text` (a file at `file`) that reaches a higher layer, as "from -> to". */
function climbingImports(file: string, text: string): string[] {
  const from = layerOf(file)
  const climbs: string[] = []
  for (const match of text.matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(file), match[1])
    if (!target.startsWith(SRC + path.sep)) continue
    const to = layerOf(target)
    if (from.layer !== undefined && to.layer !== undefined && to.layer > from.layer) {
      climbs.push(
        `${path.relative(SRC, file)} -> ${match[1]} (${from.folder}, layer ${from.layer}, imports ${to.folder}, layer ${to.layer})`,
      )
    }
  }
  return climbs
}

describe("layers", () => {
  const files = sourceFiles(SRC)

  it("gives every top folder of src/ a layer", () => {
    const folders = new Set(files.map((file) => layerOf(file).folder).filter((folder) => !folder.includes(".")))
    expect([...folders].filter((folder) => LAYERS[folder] === undefined)).toEqual([])
  })

  it("has no import that climbs to a higher layer", () => {
    expect(files.flatMap((file) => climbingImports(file, fs.readFileSync(file, "utf8")))).toEqual([])
  })

  it("names an import that climbs, in every form an import takes", () => {
    const file = path.join(SRC, "http", "example.ts")
    const text = [
      'import { a } from "../gateway/schemas"',
      'export { b } from "../providers/nexi/options"',
      'const c = require("../staff/contract")',
      'const d = await import("../api/middlewares")',
      'import { e } from "./errors"',
      'import { f } from "../money/amount"',
    ].join("\n")
    expect(climbingImports(file, text)).toEqual([
      "http/example.ts -> ../gateway/schemas (http, layer 1, imports gateway, layer 2)",
      "http/example.ts -> ../providers/nexi/options (http, layer 1, imports providers, layer 6)",
      "http/example.ts -> ../staff/contract (http, layer 1, imports staff, layer 5)",
      "http/example.ts -> ../api/middlewares (http, layer 1, imports api, layer 6)",
    ])
  })
})
