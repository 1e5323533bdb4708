/**
 * The card provider against a simulator of the spec file's own: started once per file, reset
 * before each test, and a factory of providers pointed at it. Registers its jest hooks, so call
 * it at the top of a spec.
 */

import { type TestCradle, testCradle } from "../../../../../../test-support/provider-cradle"
import { CardSync, cardSyncPort } from "../../../../../core/card/card-sync"
import { clientsFor } from "../../../../../core/clients"
import type { GatewayPayment } from "../../../../../core/gateway-money-records"
import { PaymentRecords, type SessionRecord } from "../../../../../core/medusa-records"
import { parseNexiOptions } from "../../../../../core/options"
import { SIM_API_KEY } from "../../../../../http/__tests__/support/simulator"
import { type RunningSimulator, startSimulator } from "../../../../../simulator"
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
  /**
   * The one sync over this test's cradle and simulator, `options` as for provider(). Medusa's
   * side is a stand-in that records what it is asked to apply (the integration suites run Medusa's).
   */
  sync(options?: Record<string, unknown>): CardSync
  /** What the syncs of this test asked Medusa to apply. */
  applied(): Array<{ session: SessionRecord; payment: GatewayPayment }>
}

export function simulatedCardProvider(defaults: Record<string, unknown> = {}): SimulatedCardProvider {
  let simulator: RunningSimulator
  let cradle: TestCradle
  let applied: Array<{ session: SessionRecord; payment: GatewayPayment }>
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, control: true })
  })
  afterAll(async () => {
    await simulator.close()
  })
  beforeEach(async () => {
    cradle = testCradle()
    applied = []
    await fetch(`${simulator.controlUrl}/reset`, { method: "POST" })
  })
  const optionsOf = (options: Record<string, unknown>) => ({
    apiKey: SIM_API_KEY,
    environment: simulator.gatewayUrl,
    notificationUrl: "http://localhost:9000",
    resultUrl: "https://shop.test/result",
    cancelUrl: "https://shop.test/cancel",
    ...defaults,
    ...options,
  })
  return {
    simulator: () => simulator,
    cradle: () => cradle,
    provider: (options = {}) => new NexiCardProviderService(cradle, optionsOf(options) as never),
    sync: (options = {}) => {
      const parsed = parseNexiOptions(optionsOf(options))
      const records = new PaymentRecords(cradle)
      const gateway = cardSyncPort({ gateway: clientsFor(parsed).gateway, ledger: cradle.ledger, records })
      const medusa = {
        apply: async (session: SessionRecord, payment: GatewayPayment) => {
          applied.push({ session, payment })
          return "unchanged" as const
        },
        // Nobody completes these carts but the sync.
        checkoutCompleting: async () => false,
      }
      return new CardSync({ gateway, ledger: cradle.ledger, sessions: records, medusa })
    },
    applied: () => applied,
    postCount: async (path) => {
      const { counts } = (await (await fetch(`${simulator.controlUrl}/requests`)).json()) as {
        counts: Record<string, number>
      }
      return counts[`POST ${GATEWAY_PATH}${path}`] ?? 0
    },
  }
}
