/**
 * The first install, as a store developer makes it: the package packed with `npm pack`, a new
 * store folder outside this repository with its own package.json and `npm install`, the
 * tarball installed into it, the README's `.env` block and `medusa-config.ts` written as they
 * stand, and then only Medusa's own CLI (`db:create`, `db:migrate`, `user`, `develop`) and HTTP:
 * a card order paid on the simulator started from the installed package's bin, captured and
 * partly refunded from the admin API. Nothing boots through the test runner, which resolves
 * modules its own way and once hid a missing `exports` entry that stopped every real store at
 * `db:migrate`. Requires `npm run build` first (the test:integration script does it).
 */
import fs from "node:fs"
import path from "node:path"
import {
  installStore,
  packPlugin,
  readmeBlock,
  type StoreProcess,
  startStoreBin,
  storeBin,
  storeEnvironment,
} from "../support/new-store"

// The store's install (cached after the first run), Medusa's CLI and a development server.
jest.setTimeout(20 * 60_000)

const { freePort } = require("../../scripts/lib/free-port") as { freePort(): Promise<number> }

const API_KEY = "5d952446-9004-4023-9eae-a527a152846b"
const APPROVED_CARD = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const ADMIN = { email: "admin@new-store.test", password: "first-install-password" }
const ARTIFACTS = path.resolve(__dirname, "..", "..", ".test-artifacts", "new-store")
const GATEWAY_PATH = "/api/phoenix-0.0/psp/api/v1"

/** A create-medusa-app store's own `.env` lines, before the README's block is added. */
function storeDotEnv(databaseUrl: string): string {
  return [
    `DATABASE_URL=${databaseUrl}`,
    "STORE_CORS=http://localhost:8000",
    "ADMIN_CORS=http://localhost:5173,http://localhost:9000",
    "AUTH_CORS=http://localhost:5173,http://localhost:9000,http://localhost:8000",
    "JWT_SECRET=supersecret",
    "COOKIE_SECRET=supersecret",
    "",
  ].join("\n")
}

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

  fs.writeFileSync(
    path.join(storeDir, ".env"),
    storeDotEnv(databaseUrl) + readmeBlock("### 1. The environment", "bash"),
  )
  fs.writeFileSync(path.join(storeDir, "medusa-config.ts"), readmeBlock("### 3. `medusa-config.ts`", "ts"))
  fs.writeFileSync(path.join(storeDir, "tsconfig.json"), JSON.stringify(STORE_TSCONFIG, null, 2))
  fs.writeFileSync(path.join(storeDir, "typed-use.ts"), TYPED_USE)

  // The README's addresses name the default ports; these runs take free ones (the process
  // environment wins over .env, as it does for every Medusa store).
  env = storeEnvironment({
    PORT: String(port),
    MEDUSA_BACKEND_URL: backend,
    NEXI_ENVIRONMENT: `${simulatorUrl}${GATEWAY_PATH}`,
    NEXI_APM_URL: `${simulatorUrl}/apm`,
  })
  await storeBin(storeDir, "medusa", ["db:create", "--db", database, "--no-interactive"], env)
  await storeBin(storeDir, "medusa", ["db:migrate"], env)
  await storeBin(storeDir, "medusa", ["user", "-e", ADMIN.email, "-p", ADMIN.password], env)

  processes.push(
    await startStoreBin({
      dir: storeDir,
      bin: "nexi-simulator",
      args: [`--port=${simulatorPort}`, "--control", "--quiet"],
      env,
      readyUrl: `${simulatorUrl}/__sim/requests`,
      logFile: path.join(ARTIFACTS, "simulator.log"),
    }),
  )
  processes.push(
    await startStoreBin({
      dir: storeDir,
      bin: "medusa",
      args: ["develop"],
      env,
      readyUrl: `${backend}/health`,
      logFile: path.join(ARTIFACTS, "medusa-develop.log"),
    }),
  )
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
  it("takes a card payment, captures and partly refunds it, and the gateway agrees", async () => {
    const { token } = await json(`${backend}/auth/user/emailpass`, { method: "POST", body: JSON.stringify(ADMIN) })
    const admin = (route: string, body?: unknown) =>
      json(`${backend}${route}`, {
        method: body === undefined ? "GET" : "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
        token,
      })

    const { sales_channel: channel } = await admin("/admin/sales-channels", { name: "Webshop" })
    const { api_key: key } = await admin("/admin/api-keys", { title: "Storefront", type: "publishable" })
    await admin(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] })
    const { region } = await admin("/admin/regions", {
      name: "Italy",
      currency_code: "eur",
      countries: ["it"],
      payment_providers: ["pp_nexi_nexi"],
    })
    const { product } = await admin("/admin/products", {
      title: "Espresso cup",
      status: "published",
      options: [{ title: "Size", values: ["One"] }],
      variants: [
        {
          title: "One",
          options: { Size: "One" },
          manage_inventory: false,
          prices: [{ currency_code: "eur", amount: 19.99 }],
        },
      ],
      sales_channels: [{ id: channel.id }],
    })

    const store = (route: string, body: unknown) =>
      json(`${backend}${route}`, { method: "POST", body: JSON.stringify(body), publishableKey: key.token })
    const address = {
      first_name: "Giulia",
      last_name: "Rossi",
      address_1: "Via Roma 1",
      city: "Milano",
      postal_code: "20121",
      country_code: "it",
    }
    const { cart } = await store("/store/carts", {
      region_id: region.id,
      email: "giulia@example.com",
      items: [{ variant_id: product.variants[0].id, quantity: 1 }],
      shipping_address: address,
      billing_address: address,
    })
    const { payment_collection: collection } = await store("/store/payment-collections", { cart_id: cart.id })
    const { payment_collection: withSession } = await store(
      `/store/payment-collections/${collection.id}/payment-sessions`,
      {
        provider_id: "pp_nexi_nexi",
      },
    )
    const orderId: string = withSession.payment_sessions[0].data.order_id
    expect(withSession.payment_sessions[0].data.hosted_page).toMatch(new RegExp(`^${simulatorUrl}/`))

    // The README's "pay a test order without a browser".
    const paid = await json(`${simulatorUrl}/__sim/hpp/${orderId}/pay`, {
      method: "POST",
      body: JSON.stringify(APPROVED_CARD),
    })
    expect(paid.result).toBe("AUTHORIZED")
    const completed = await store(`/store/carts/${cart.id}/complete`, {})
    expect(completed.type).toBe("order")

    const { order } = await admin(`/admin/orders/${completed.order.id}?fields=*payment_collections.payments`)
    const payment = order.payment_collections[0].payments[0]
    await admin(`/admin/payments/${payment.id}/capture`, {})
    await admin(`/admin/payments/${payment.id}/refund`, { amount: 5 })

    const gateway = await json(`${simulatorUrl}${GATEWAY_PATH}/orders/${orderId}`, {
      headers: { "x-api-key": API_KEY, "correlation-id": crypto.randomUUID() },
    })
    const operations = gateway.operations.map(
      (operation: { operationType: string; operationResult: string; operationAmount: string }) =>
        `${operation.operationType} ${operation.operationResult} ${operation.operationAmount}`,
    )
    expect(operations).toEqual(expect.arrayContaining(["CAPTURE EXECUTED 1999", "REFUND REFUNDED 500"]))
    const { payment: recorded } = await admin(`/admin/payments/${payment.id}?fields=*captures,*refunds`)
    expect(recorded.captures.map((capture: { amount: number }) => capture.amount)).toEqual([19.99])
    expect(recorded.refunds.map((refund: { amount: number }) => refund.amount)).toEqual([5])
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
    // internet (a blocking FAIL, exit 1) and the environment is a custom URL (a WARN).
    expect(failure?.code).toBe(1)
    expect(failure?.output).toMatch(/PASS\s+API key/)
    expect(failure?.output).toMatch(/FAIL\s+Notification URL/)
    expect(failure?.output).toMatch(/WARN\s+Gateway environment/)
  })
})
