/**
 * The README's first hour, as a store developer follows it: the package packed with `npm pack`,
 * a new store folder outside this repository with its own package.json and `npm install`, the
 * tarball installed into it, the README's `.env` block and `medusa-config.ts` written as they
 * stand, then the README's commands as they stand (`medusa db:migrate`, `medusa user`, the
 * simulator and `medusa develop` from the installed bins, then `nexi-first-order`: a card order
 * paid on the simulator, captured and refunded in two parts). Only the ports and the database
 * are the suite's own, given as variables, which win over `.env` as in every Medusa store.
 * Nothing boots through the test runner, which resolves modules its own way and once hid a
 * missing `exports` entry that stopped every real store at `db:migrate`. Requires
 * `npm run build` first (the test:integration script does it).
 */
import fs from "node:fs"
import path from "node:path"
import {
  installStore,
  packPlugin,
  readmeBlock,
  readmeCommands,
  type StoreProcess,
  startStoreBin,
  storeBin,
  storeEnvironment,
} from "../support/new-store"

// The store's install (cached after the first run), Medusa's CLI and a development server.
jest.setTimeout(20 * 60_000)

const { freePort } = require("../../scripts/lib/free-port") as { freePort(): Promise<number> }

const API_KEY = "5d952446-9004-4023-9eae-a527a152846b"
const ARTIFACTS = path.resolve(__dirname, "..", "..", ".test-artifacts", "new-store")
const GATEWAY_PATH = "/api/phoenix-0.0/psp/api/v1"
const START = readmeCommands("### 4. Migrate and start")
const [FIRST_ORDER] = readmeCommands("### 5. The first paid order")

/** The admin user the README's `medusa user` line makes, and `nexi-first-order` logs in as. */
function readmeAdmin(): { email: string; password: string } {
  const { args } = FIRST_ORDER
  return { email: args[args.indexOf("--email") + 1], password: args[args.indexOf("--password") + 1] }
}
const ADMIN = readmeAdmin()

/** A store file that uses the package's types, and one misuse they must refuse. */
const TYPED_USE = `import type { NexiOptionsInput } from "medusa-payment-nexi/providers/nexi"
import { type SavedCardChargeInput, chargeSavedCard } from "medusa-payment-nexi/saved-card-charge"
import { type RunningSimulator, startSimulator } from "medusa-payment-nexi/simulator"

export const options: NexiOptionsInput = {
  apiKey: "key",
  notificationUrl: "https://api.example.com",
  resultUrl: "https://shop.example.com/r?cart_id={cart_id}",
  cancelUrl: "https://shop.example.com/c?cart_id={cart_id}",
}
export const start: (options: { port: number }) => Promise<RunningSimulator> = startSimulator
// @ts-expect-error captureType is EXPLICIT or IMPLICIT
export const wrong: NexiOptionsInput = { ...options, captureType: "LATER" }
export const charge: typeof chargeSavedCard = chargeSavedCard
// @ts-expect-error a charge names the saved card to charge
export const noCard: SavedCardChargeInput = { orderId: "order_1" }
`

const STORE_TSCONFIG = {
  compilerOptions: {
    target: "ES2021",
    module: "Node16",
    moduleResolution: "Node16",
    esModuleInterop: true,
    skipLibCheck: true,
    strict: true,
    noEmit: true,
    jsx: "react-jsx",
    resolveJsonModule: true,
  },
  "ts-node": { swc: true },
  include: ["*.ts"],
}

async function json(url: string, init: RequestInit & { token?: string; publishableKey?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (init.token) headers.authorization = `Bearer ${init.token}`
  if (init.publishableKey) headers["x-publishable-api-key"] = init.publishableKey
  const answer = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } })
  const body = await answer.json().catch(() => undefined)
  if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${url} answered ${answer.status}: ${JSON.stringify(body)}`)
  return body as any
}

let packedFiles: string[] = []
let storeDir = ""
let env: NodeJS.ProcessEnv = {}
let backend = ""
let simulatorUrl = ""
const processes: StoreProcess[] = []

beforeAll(async () => {
  const packed = await packPlugin()
  packedFiles = packed.files
  storeDir = await installStore(packed.tarball)
  fs.rmSync(path.dirname(packed.tarball), { recursive: true, force: true })

  const [port, simulatorPort] = [await freePort(), await freePort()]
  backend = `http://localhost:${port}`
  simulatorUrl = `http://127.0.0.1:${simulatorPort}`
  const database = `nexi_new_store_${process.pid}`
  const credentials = `${process.env.DB_USERNAME ?? "postgres"}:${process.env.DB_PASSWORD ?? ""}`
  const databaseUrl = `postgres://${credentials}@${process.env.DB_HOST ?? "localhost"}:${process.env.DB_PORT ?? "5432"}/${database}`

  fs.writeFileSync(path.join(storeDir, ".env"), readmeBlock("### 1. The environment", "bash"))
  fs.writeFileSync(path.join(storeDir, "medusa-config.ts"), readmeBlock("### 3. `medusa-config.ts`", "ts"))
  fs.writeFileSync(path.join(storeDir, "tsconfig.json"), JSON.stringify(STORE_TSCONFIG, null, 2))
  fs.writeFileSync(path.join(storeDir, "typed-use.ts"), TYPED_USE)

  // The README's addresses name the default ports and its database; these runs take free
  // ports and a database of their own (the process environment wins over .env, as it does for
  // every Medusa store). The one simulator variable moves both of Nexi's services.
  env = storeEnvironment({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    MEDUSA_BACKEND_URL: backend,
    NEXI_SIMULATOR_URL: simulatorUrl,
  })
  // create-medusa-app makes the database; the README starts after it. Medusa's db:create reads
  // the server from the .env file alone (not the environment): this run's server, for that call.
  const dotEnv = path.join(storeDir, ".env")
  const readmeEnv = fs.readFileSync(dotEnv, "utf8")
  fs.writeFileSync(dotEnv, `DATABASE_URL=${databaseUrl}\n`)
  await storeBin(storeDir, "medusa", ["db:create", "--db", database, "--no-interactive"], env)
  fs.writeFileSync(dotEnv, readmeEnv)

  for (const { bin, args } of START) {
    if (bin === "nexi-simulator") {
      processes.push(
        await startStoreBin({
          dir: storeDir,
          bin,
          args: [...args, `--port=${simulatorPort}`, "--quiet"],
          env,
          readyUrl: `${simulatorUrl}/__sim/requests`,
          logFile: path.join(ARTIFACTS, "simulator.log"),
        }),
      )
    } else if (bin === "medusa" && args[0] === "develop") {
      processes.push(
        await startStoreBin({
          dir: storeDir,
          bin,
          args,
          env,
          readyUrl: `${backend}/health`,
          logFile: path.join(ARTIFACTS, "medusa-develop.log"),
        }),
      )
    } else {
      await storeBin(storeDir, bin, args, env)
    }
  }
})

afterAll(async () => {
  for (const running of processes.reverse()) await running.stop()
})

describe("the packed package", () => {
  it("ships the built code, its type declarations and the docs, nothing of the development tree", () => {
    for (const file of ["providers/nexi/index", "simulator/index", "staff/saved-card-charge"]) {
      expect(packedFiles).toContain(`.medusa/server/src/${file}.js`)
      expect(packedFiles).toContain(`.medusa/server/src/${file}.d.ts`)
    }
    expect(packedFiles).toContain(".medusa/server/src/simulator/cli.js")
    expect(packedFiles).toContain(".medusa/server/src/simulator/first-order.js")
    expect(packedFiles).toContain(".medusa/server/src/modules/nexi-ledger/index.js")
    for (const file of [
      "README.md",
      "LICENSE",
      "CONTRIBUTING.md",
      "docs/simulator.md",
      "docs/storefront.md",
      "docs/contract/gateway.md",
    ]) {
      expect(packedFiles).toContain(file)
    }
    const outsideTheBuild = packedFiles.filter((file) => !file.startsWith(".medusa/server/"))
    expect(
      outsideTheBuild.filter(
        (file) => !/^(docs\/.*\.md|README\.md|CONTRIBUTING\.md|LICENSE|package\.json)$/.test(file),
      ),
    ).toEqual([])
    const unwanted = packedFiles.filter((file) =>
      /(__tests__|\.spec\.|integration-tests|browser-tests|medusa-config|simulator-state|\.env|(?<!\.d)\.ts$)/.test(
        file,
      ),
    )
    expect(unwanted).toEqual([])
  })

  it("gives a TypeScript store the types of the simulator, the provider options and the saved-card charge", async () => {
    // Fails on a missing declaration (the import would be `any` and the @ts-expect-error unused).
    await expect(storeBin(storeDir, "tsc", ["-p", "tsconfig.json"], env)).resolves.toBeDefined()
  })
})

describe("a new store with the README's configuration", () => {
  it("makes the README's first paid order: shipped, paid on the simulator, captured, refunded in two parts", async () => {
    expect(START.map(({ bin, args }) => `${bin} ${args[0]}`)).toEqual([
      "medusa db:migrate",
      "medusa user",
      "nexi-simulator --control",
      "medusa develop",
    ])
    const output = await storeBin(storeDir, FIRST_ORDER.bin, FIRST_ORDER.args, env)
    expect(output).toMatch(/^ {2}order +#1 \(order_\w+\), 24\.89 EUR authorized$/m)
    expect(output).toMatch(/^ {2}refunded +5\.00, then 19\.89: the order is refunded$/m)
    const orderId = output.match(/^Order (order_\w+):/m)?.[1]

    const { token } = await json(`${backend}/auth/user/emailpass`, { method: "POST", body: JSON.stringify(ADMIN) })
    const admin = (route: string) => json(`${backend}${route}`, { token })
    const { order } = await admin(
      `/admin/orders/${orderId}?fields=payment_status,*shipping_methods,*payment_collections.payments`,
    )
    expect(order.payment_status).toBe("refunded")
    expect(order.shipping_methods.map((method: { name: string }) => method.name)).toEqual(["Nexi first order shipping"])
    const payment = order.payment_collections[0].payments[0]
    expect(payment.provider_id).toBe("pp_nexi_nexi")
    const { payment: recorded } = await admin(`/admin/payments/${payment.id}?fields=*captures,*refunds`)
    expect(recorded.captures.map((capture: { amount: number }) => capture.amount)).toEqual([24.89])
    expect(
      recorded.refunds.map((refund: { amount: number }) => refund.amount).sort((a: number, b: number) => a - b),
    ).toEqual([5, 19.89])

    const gateway = await json(`${simulatorUrl}${GATEWAY_PATH}/orders/${payment.data.order_id}`, {
      headers: { "x-api-key": API_KEY, "correlation-id": crypto.randomUUID() },
    })
    const operations = gateway.operations.map(
      (operation: { operationType: string; operationResult: string; operationAmount: string }) =>
        `${operation.operationType} ${operation.operationResult} ${operation.operationAmount}`,
    )
    expect(operations).toEqual(
      expect.arrayContaining(["CAPTURE EXECUTED 2489", "REFUND REFUNDED 500", "REFUND REFUNDED 1989"]),
    )

    // A second run reuses what the first set up (found by name) and makes one more order.
    const again = await storeBin(storeDir, FIRST_ORDER.bin, FIRST_ORDER.args, env)
    expect(again).toMatch(/^ {2}order +#2 /m)
    const { regions } = await admin("/admin/regions")
    expect(regions).toHaveLength(1)
    const { products } = await admin("/admin/products?handle=nexi-first-order-mug")
    expect(products).toHaveLength(1)
  })

  it("serves the plugin's admin routes and screens from the installed package", async () => {
    const { token } = await json(`${backend}/auth/user/emailpass`, { method: "POST", body: JSON.stringify(ADMIN) })
    const report = await json(`${backend}/admin/nexi/doctor`, { token })
    const apiKey = report.checks.find((check: { id: string }) => check.id === "api-key")
    expect(apiKey.status).toBe("pass")
    const page = await fetch(`${backend}/app`)
    expect(page.status).toBe(200)
  })

  it("runs the doctor from the store's folder, with the result the README describes for the simulator", async () => {
    const failure = await storeBin(storeDir, "nexi-doctor", ["--currency", "EUR"], env).then(
      () => undefined,
      (error: { output: string; code: unknown }) => error,
    )
    // Against the simulator on loopback: the notification URL cannot be reached from the
    // internet and the storefront's is not https (blocking FAILs, exit 1), and the environment
    // is a custom URL (a WARN).
    expect(failure?.code).toBe(1)
    expect(failure?.output).toMatch(/PASS\s+API key/)
    expect(failure?.output).toMatch(/FAIL\s+Notification URL/)
    expect(failure?.output).toMatch(/FAIL\s+Return URLs/)
    expect(failure?.output).toMatch(/WARN\s+Gateway environment/)
  })
})
