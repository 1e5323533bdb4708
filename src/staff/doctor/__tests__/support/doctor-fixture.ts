/**
 * The doctor against a simulator of the spec file's own, over HTTP: a configuration a store
 * could go live with (apart from the simulator's URL), and a way to spoil one option of it.
 */
import { clientsFor } from "../../../../core/clients"
import { type NexiOptions, parseNexiOptions } from "../../../../core/options"
import { type RunningSimulator, startSimulator } from "../../../../simulator"
import { type DoctorContext, type DoctorInput, readPaymentMethodsOnce } from "../../check"

export const SIM_API_KEY = "5d952446-9004-4023-9eae-a527a152846b"

export const GOOD_URLS = {
  notificationUrl: "https://api.shop.example.com",
  resultUrl: "https://shop.example.com/checkout/nexi/result?cart_id={cart_id}",
  cancelUrl: "https://shop.example.com/checkout?step=payment&cart_id={cart_id}",
}

export interface DoctorFixture {
  simulator(): RunningSimulator
  /** The raw options of a good configuration, `overrides` over them (apm: merged). */
  rawOptions(overrides?: Record<string, unknown>): Record<string, unknown>
  options(overrides?: Record<string, unknown>): NexiOptions
  input(overrides?: Record<string, unknown>, extra?: Partial<DoctorInput>): DoctorInput
  context(overrides?: Record<string, unknown>, extra?: Partial<DoctorInput>): DoctorContext
}

export function doctorFixture(): DoctorFixture {
  let simulator: RunningSimulator
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, control: true })
  })
  afterAll(async () => {
    await simulator.close()
  })
  const rawOptions = (overrides: Record<string, unknown> = {}) => {
    const { apm, ...rest } = overrides
    return {
      apiKey: SIM_API_KEY,
      environment: simulator.gatewayUrl,
      ...GOOD_URLS,
      retries: 0,
      timeoutMs: 5_000,
      ...rest,
      apm:
        apm === null
          ? undefined
          : {
              consumerKey: "sim-key",
              consumerSecret: "sim-secret",
              merchantId: "merchant-1",
              environment: simulator.apmUrl,
              retries: 0,
              ...(apm as Record<string, unknown> | undefined),
            },
    }
  }
  const options = (overrides?: Record<string, unknown>) => parseNexiOptions(rawOptions(overrides))
  const input = (overrides?: Record<string, unknown>, extra: Partial<DoctorInput> = {}): DoctorInput => {
    const parsed = options(overrides)
    return { options: parsed, clients: clientsFor(parsed), currencies: ["eur"], ...extra }
  }
  return {
    simulator: () => simulator,
    rawOptions,
    options,
    input,
    context: (overrides, extra) => {
      const given = input(overrides, extra)
      return {
        options: given.options,
        clients: given.clients,
        currencies: given.currencies,
        now: given.now ?? Date.now,
        fetch: given.fetch ?? globalThis.fetch,
        paymentMethods: readPaymentMethodsOnce(given.clients.gateway),
      }
    },
  }
}

/** A port nothing listens on: a server is opened on it and closed again. */
export async function closedPort(): Promise<number> {
  const net = await import("node:net")
  return new Promise((resolve) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
