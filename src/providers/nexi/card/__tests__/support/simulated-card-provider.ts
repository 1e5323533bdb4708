/**
 * The card provider against a simulator of the spec file's own: started once per file, reset
 * before each test, and a factory of providers pointed at it. Registers its jest hooks, so call
 * it at the top of a spec.
 */
import { SIM_API_KEY } from "../../../../../http/__tests__/support/simulator"
import { type RunningSimulator, startSimulator } from "../../../../../simulator"
import { type TestCradle, testCradle } from "../../../shared/__tests__/support/provider-cradle"
import { NexiCardProviderService } from "../../card-provider"

const GATEWAY_PATH = "/api/phoenix-0.0/psp/api/v1"

export interface SimulatedCardProvider {
  simulator(): RunningSimulator
  /** A provider with the test options, `options` overriding them, on this test's cradle. */
  provider(options?: Record<string, unknown>): NexiCardProviderService
  /** This test's ledger and Medusa records, shared by every provider it makes. */
  cradle(): TestCradle
  /** How many POSTs the simulator received on a gateway path, e.g. "/orders/hpp". */
  postCount(path: string): Promise<number>
}

export function simulatedCardProvider(defaults: Record<string, unknown> = {}): SimulatedCardProvider {
  let simulator: RunningSimulator
  let cradle: TestCradle
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, control: true })
  })
  afterAll(async () => {
    await simulator.close()
  })
  beforeEach(async () => {
    cradle = testCradle()
    await fetch(`${simulator.controlUrl}/reset`, { method: "POST" })
  })
  return {
    simulator: () => simulator,
    cradle: () => cradle,
    provider: (options = {}) =>
      new NexiCardProviderService(cradle, {
        apiKey: SIM_API_KEY,
        environment: simulator.gatewayUrl,
        notificationUrl: "http://localhost:9000",
        resultUrl: "https://shop.test/result",
        cancelUrl: "https://shop.test/cancel",
        ...defaults,
        ...options,
      } as never),
    postCount: async (path) => {
      const { counts } = (await (await fetch(`${simulator.controlUrl}/requests`)).json()) as { counts: Record<string, number> }
      return counts[`POST ${GATEWAY_PATH}${path}`] ?? 0
    },
  }
}
