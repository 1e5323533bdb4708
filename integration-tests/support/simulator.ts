/**
 * The gateway simulator for an integration suite, on the port medusa-config.ts was told
 * about by the global setup. Call `simulatorForSuite()` before medusaIntegrationTestRunner so it
 * is listening before the store boots.
 */
import type { ExtendedEnvelope } from "../../src/apm/schemas"
import { type RunningSimulator, startSimulator } from "../../src/simulator"

export interface SimulatorHandle {
  readonly url: string
  control<T = unknown>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T>
  /** A call to the card gateway as the merchant's back office would make it. */
  gateway<T = unknown>(path: string, body?: unknown): Promise<T>
  /** A status read of the alternative-payment service, with the store's credentials. */
  apmTransaction(transactionId: string | number): Promise<ExtendedEnvelope>
}

export const SANDBOX_API_KEY = "5d952446-9004-4023-9eae-a527a152846b"
/** The credentials medusa-config.ts gives the APM providers by default. */
const APM_AUTHORIZATION = `Bearer ${Buffer.from("sim-key:sim-secret").toString("base64")}`

export function simulatorForSuite(): SimulatorHandle {
  let simulator: RunningSimulator | undefined
  beforeAll(async () => {
    simulator = await startSimulator({
      port: Number(process.env.NEXI_SIMULATOR_PORT),
      host: "127.0.0.1",
      control: true,
    })
  })
  afterAll(async () => {
    await simulator?.close()
  })
  const call = async <T>(url: string, init: RequestInit): Promise<T> => {
    const answer = await fetch(url, init)
    const text = await answer.text()
    if (!answer.ok) throw new Error(`${init.method ?? "GET"} ${url} answered ${answer.status}: ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
  return {
    get url() {
      return simulator!.url
    },
    control: (method, path, body) =>
      call(`${simulator!.controlUrl}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    gateway: (path, body) =>
      call(`${simulator!.gatewayUrl}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          "x-api-key": SANDBOX_API_KEY,
          "correlation-id": crypto.randomUUID(),
          "idempotency-key": crypto.randomUUID(),
          "content-type": "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    apmTransaction: (transactionId) =>
      call(`${simulator!.apmUrl}/ms/aapay/v2/transaction/${transactionId}`, {
        headers: { authorization: APM_AUTHORIZATION },
      }),
  }
}
