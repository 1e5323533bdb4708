/**
 * nexi-doctor as a merchant runs it: a child process (the TypeScript source through ts-node, so
 * no build is needed) against this file's simulator, from a directory of its own.
 */
import { execFile } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { type RunningSimulator, startSimulator } from "../../../simulator"
import { FLAGS } from "../cli"
import { GOOD_URLS, SIM_API_KEY } from "./support/doctor-fixture"

const ROOT = path.resolve(__dirname, "../../../..")
const CLI = path.join(ROOT, "src/staff/doctor/cli.ts")

jest.setTimeout(60_000)

type Run = { code: number | null; stdout: string; stderr: string }

let simulator: RunningSimulator
let cwd: string

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, control: true })
  // Outside the repository: its own medusa-config.ts must not be picked up as the store's.
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), "nexi-doctor-"))
})

afterAll(async () => {
  await simulator.close()
  fs.rmSync(cwd, { recursive: true, force: true })
})

function doctor(args: string[], env: Record<string, string> = {}, dir = cwd): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TS_NODE_PROJECT: path.join(ROOT, "tsconfig.json"),
    ...env,
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["-r", require.resolve("ts-node/register/transpile-only"), CLI, ...args],
      { cwd: dir, env: childEnv },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
      },
    )
  })
}

const goodFlags = () => [
  "--api-key",
  SIM_API_KEY,
  "--environment",
  simulator.gatewayUrl,
  "--notification-url",
  GOOD_URLS.notificationUrl,
  "--result-url",
  GOOD_URLS.resultUrl,
  "--cancel-url",
  GOOD_URLS.cancelUrl,
  "--currency",
  "EUR",
  "--currency",
  "usd",
  "--apm-consumer-key",
  "sim-key",
  "--apm-consumer-secret",
  "sim-secret",
  "--apm-merchant-id",
  "merchant-1",
  "--apm-environment",
  simulator.apmUrl,
  "--wallets",
  "GOOGLEPAY, APPLEPAY",
]

describe("nexi-doctor", () => {
  it("exits 0 for a good configuration, one line per check, never printing a secret", async () => {
    const run = await doctor(goodFlags())
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split("\n")
    expect(lines[0]).toBe("Nexi doctor: options from flags and environment variables")
    expect(lines.slice(1, 10).map((line) => line.split(":")[0])).toEqual([
      "PASS  API key",
      "WARN  Gateway environment",
      "PASS  Notification URL",
      "PASS  Return URLs",
      "PASS  Region currencies",
      "PASS  Mobile payment credentials",
      "PASS  Clock",
      "PASS  Capture type",
      "PASS  Google Pay and Apple Pay",
    ])
    expect(lines[9]).toMatch(/offers Google Pay \(GOOGLEPAY\) and Apple Pay \(APPLEPAY\), which the gateway lists/)
    expect(lines[10]).toBe("No blocking problem found.")
    expect(run.stdout).not.toContain(SIM_API_KEY)
    expect(run.stdout).not.toContain("sim-secret")
  })

  it.each([
    ["a wrong API key", ["--api-key", "wrong-key"], "FAIL  API key: the API key is refused"],
    [
      "a localhost notification URL",
      ["--notification-url", "http://localhost:9000"],
      "FAIL  Notification URL: notificationUrl http://localhost:9000",
    ],
    [
      "an http result URL",
      ["--result-url", "http://localhost:8000/r?cart_id={cart_id}"],
      "FAIL  Return URLs: resultUrl http://localhost:8000",
    ],
    [
      "a cancel URL without placeholder",
      ["--cancel-url", "https://shop.example.com/checkout"],
      "FAIL  Return URLs: cancelUrl",
    ],
    ["an unknown currency", ["--currency", "XYZ"], "FAIL  Region currencies: XYZ is not an ISO 4217 currency"],
    [
      "a wrong APM secret",
      ["--apm-consumer-secret", "wrong-secret"],
      "FAIL  Mobile payment credentials: the consumer key and secret are refused",
    ],
  ])("exits 1 with %s, with the fix on the line", async (_case, bad, line) => {
    const run = await doctor([...goodFlags(), ...bad])
    expect(run.code).toBe(1)
    const failed = run.stdout.split("\n").filter((text) => text.startsWith("FAIL"))
    expect(failed).toHaveLength(1)
    expect(failed[0].startsWith(line)).toBe(true)
    expect(failed[0]).toContain(" Fix: ")
    expect(run.stdout).toContain("Not ready to go live")
    expect(run.stdout).not.toMatch(/wrong-key|wrong-secret/)
  })

  it("reads environment variables when flags are absent, and answers JSON with --json", async () => {
    const run = await doctor(["--json"], {
      NEXI_API_KEY: SIM_API_KEY,
      NEXI_ENVIRONMENT: simulator.gatewayUrl,
      MEDUSA_BACKEND_URL: "http://localhost:9000",
      NEXI_RESULT_URL: GOOD_URLS.resultUrl,
      NEXI_CANCEL_URL: GOOD_URLS.cancelUrl,
      NEXI_CURRENCIES: "EUR,CHF",
    })
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout)
    expect(report.blocking).toBe(true)
    expect(report.checks.find((check: { id: string }) => check.id === "notification-url").status).toBe("fail")
    expect(report.checks.find((check: { id: string }) => check.id === "currencies").detail).toMatch(/^CHF, EUR: /)
  })

  it("reads the store's medusa-config.js, the entry named by --entry, flags over it", async () => {
    const store = fs.mkdtempSync(path.join(cwd, "store-"))
    const entry = (id: string, apiKey: string) => ({
      resolve: "medusa-payment-nexi/providers/nexi",
      id,
      options: { apiKey, environment: simulator.gatewayUrl, ...GOOD_URLS },
    })
    const config = {
      modules: [
        {
          resolve: "@medusajs/medusa/payment",
          options: { providers: [entry("nexi", "wrong-key"), entry("nexi-it", SIM_API_KEY)] },
        },
      ],
    }
    fs.writeFileSync(path.join(store, "medusa-config.js"), `module.exports = ${JSON.stringify(config)}\n`)

    const first = await doctor(["--currency", "EUR"], {}, store)
    expect(first.stdout).toContain(`options from ${path.join(store, "medusa-config.js")}`)
    expect(first.stdout).toMatch(/^FAIL {2}API key: the API key is refused/m)
    expect(first.code).toBe(1)

    const named = await doctor(["--entry", "nexi-it", "--currency", "EUR"], {}, store)
    expect(named.stdout).toMatch(/^PASS {2}API key/m)
    expect(named.code).toBe(0)

    const overridden = await doctor(
      ["--config", "medusa-config.js", "--api-key", SIM_API_KEY, "--currency", "EUR"],
      {},
      store,
    )
    expect(overridden.code).toBe(0)

    const missing = await doctor(["--entry", "nexi-fr"], {}, store)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('has no Nexi entry with id "nexi-fr" (entries: nexi, nexi-it)')
  })

  it("loads a medusa-config.ts with the store's ts-node, and says so when the store has none", async () => {
    const config = (key: string) =>
      `const key: string = ${JSON.stringify(key)}\nexport default { modules: { payment: { options: { providers: [{ resolve: "./src/providers/nexi", id: "nexi", options: { apiKey: key, environment: ${JSON.stringify(simulator.gatewayUrl)}, notificationUrl: ${JSON.stringify(GOOD_URLS.notificationUrl)}, resultUrl: ${JSON.stringify(GOOD_URLS.resultUrl)}, cancelUrl: ${JSON.stringify(GOOD_URLS.cancelUrl)} } }] } } } }\n`
    // Inside the repository, where ts-node resolves as it does in a store.
    fs.mkdirSync(path.join(ROOT, ".cache"), { recursive: true })
    const store = fs.mkdtempSync(path.join(ROOT, ".cache", "doctor-store-"))
    try {
      fs.writeFileSync(path.join(store, "medusa-config.ts"), config(SIM_API_KEY))
      const loaded = await doctor(["--currency", "EUR"], {}, store)
      expect(loaded.stdout).toContain(`options from ${path.join(store, "medusa-config.ts")}`)
      expect(loaded.code).toBe(0)
    } finally {
      fs.rmSync(store, { recursive: true, force: true })
    }
    const bare = fs.mkdtempSync(path.join(cwd, "bare-"))
    fs.writeFileSync(path.join(bare, "medusa-config.ts"), config(SIM_API_KEY))
    const refused = await doctor([], {}, bare)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      "is TypeScript and ts-node is not installed in the store; install it, or pass the options as flags",
    )
  })

  it("says it found no medusa-config when run outside a store's folder with nothing given", async () => {
    const empty = fs.mkdtempSync(path.join(cwd, "empty-"))
    const run = await doctor(["--currency", "EUR"], {}, empty)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      `nexi-doctor: no medusa-config.js or medusa-config.ts in ${empty}: run it in the store's folder`,
    )
    expect(run.stdout).not.toContain("is required")

    // With some options given, the missing ones are named too.
    const some = await doctor(["--api-key", SIM_API_KEY], {}, empty)
    expect(some.code).toBe(1)
    expect(some.stderr).toContain("no medusa-config.js or medusa-config.ts in")
    expect(some.stdout).toMatch(/^FAIL {2}Options \(flags and environment variables\): .*resultUrl: is required/)
    expect(some.stdout).not.toContain(SIM_API_KEY)
  })

  it("fails on options the provider would refuse at boot, naming them", async () => {
    const run = await doctor(["--no-config", "--environment", simulator.gatewayUrl, "--wallets", "GOOGLEPAY,PAYPAL"])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /^FAIL {2}Options \(flags and environment variables\): .*apiKey: is required.*resultUrl: is required.*wallets\.1: must be "GOOGLEPAY" or "APPLEPAY"/,
    )
  })

  it("prints every flag with its default on --help, and refuses an unknown flag", async () => {
    const help = await doctor(["--help"])
    expect(help.code).toBe(0)
    for (const flag of FLAGS)
      expect(help.stdout).toMatch(new RegExp(`--${flag.flag} VALUE .*env ${flag.env}; default: `))
    for (const flag of ["--config", "--no-config", "--entry", "--currency", "--timeout-ms", "--json"])
      expect(help.stdout).toContain(flag)
    const unknown = await doctor(["--apikey", "x"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/Unknown option '--apikey'/)
  })
})
