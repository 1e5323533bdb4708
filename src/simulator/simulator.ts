/**
 * startSimulator: builds the families (card gateway, hosted pages, APM, control), mounts
 * them on one HTTP server, restores and persists the state file, and closes it all cleanly.
 */
import { ApmSimulator } from "./apm"
import { serveAsset } from "./assets/routes"
import { createFieldsApi, serveFieldPage, serveSdk } from "./card-fields/routes"
import { SimClock } from "./clock"
import { createControlHandler } from "./control"
import { RequestFaults } from "./faults"
import type { GatewayContext } from "./gateway/context"
import { MerchantNotices } from "./gateway/merchant-notices"
import { RefundSettler } from "./gateway/refund-settlement"
import { createGatewayHandler } from "./gateway/router"
import { GatewayStore } from "./gateway/store"
import { HostedPayments } from "./hpp/flow"
import { createHostedPageHandler } from "./hpp/routes"
import { IssuedTokens } from "./issued-tokens"
import { NotificationSender } from "./notifications"
import {
  APM_BASE_PATH,
  CONTROL_BASE_PATH,
  DEFAULTS,
  GATEWAY_BASE_PATH,
  isLoopbackHost,
  localBaseUrl,
  type SimulatorOptions,
} from "./options"
import { StateFile } from "./persistence"
import { RequestLog } from "./request-log"
import { type Mount, SimServer } from "./server"

export interface RunningSimulator {
  /** Base address of the server, e.g. http://127.0.0.1:4010. */
  url: string
  /** The card gateway's {base_url}. */
  gatewayUrl: string
  /** The alternative-payment service's {apm_base_url}. */
  apmUrl: string
  /** The control API; answers 404 unless the simulator started with control on. */
  controlUrl: string
  /** Where hosted pages and logos point browsers (publicUrl, or url). */
  publicUrl: string
  close(): Promise<void>
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? DEFAULTS.host
  if (options.control && !isLoopbackHost(host)) {
    throw new Error(
      `refusing to start with control on ${host}: the control API resets state and injects faults, so it is served on loopback addresses only`,
    )
  }
  const stateFile = options.stateFile ? new StateFile(options.stateFile) : undefined
  const saved = stateFile?.load()

  const clock = new SimClock()
  const faults = new RequestFaults()
  const requestLog = new RequestLog()
  const notifications = new NotificationSender(clock)
  let latencyMs = options.latencyMs ?? 0
  let restoring = true
  const persist = () => {
    if (!restoring) stateFile?.save({ version: 1, gateway: store.snapshot(), apm: apm.snapshot() })
  }
  const store = new GatewayStore(persist)

  const server = new SimServer({
    faults,
    requestLog,
    now: () => clock.now(),
    latencyMs: () => latencyMs,
    logger: options.logger,
  })
  const address = await server.listen(options.port ?? DEFAULTS.port, host)
  const url = localBaseUrl(host, address.port)
  const publicUrl = (options.publicUrl ?? url).replace(/\/+$/, "")

  const notices = new MerchantNotices(notifications, clock)
  const refunds = new RefundSettler(options.refundSettlement ?? { mode: "immediate" }, store, notices, clock)
  const issuedTokens = new IssuedTokens()
  const context: GatewayContext = { store, clock, notices, refunds, publicUrl, issuedTokens }
  const hostedPayments = new HostedPayments(context)
  const apm = new ApmSimulator({
    consumerKey: options.apmConsumerKey ?? DEFAULTS.apmConsumerKey,
    consumerSecret: options.apmConsumerSecret ?? DEFAULTS.apmConsumerSecret,
    publicUrl,
    now: () => clock.now(),
    onChange: persist,
  })

  try {
    if (saved) {
      store.restore(saved.gateway)
      apm.restore(saved.apm)
    }
  } catch (error) {
    await server.close()
    throw new Error(`state file ${options.stateFile} could not be restored: ${(error as Error).message}`)
  }
  restoring = false
  refunds.resume()

  const reset = () => {
    store.reset()
    apm.reset()
    notifications.reset()
    faults.clear()
    requestLog.clear()
    clock.setOffsetMs(0)
    latencyMs = options.latencyMs ?? 0
    refunds.reset()
  }

  const mounts: Mount[] = [
    {
      prefix: GATEWAY_BASE_PATH,
      handler: createGatewayHandler(context, options.apiKeys ?? [DEFAULTS.apiKey]),
      instrumented: true,
    },
    { prefix: APM_BASE_PATH, handler: (req) => apm.handle(req), instrumented: true },
    { prefix: "/hpp", handler: createHostedPageHandler(store, hostedPayments), instrumented: true },
    { prefix: "/assets", handler: serveAsset, instrumented: true },
    { prefix: "/field.html", handler: serveFieldPage(store), instrumented: true },
    { prefix: "/fields", handler: createFieldsApi(context, hostedPayments), instrumented: true },
    { prefix: "/monetaweb/resources", handler: serveSdk, instrumented: true },
  ]
  if (options.control) {
    const latency = { get: () => latencyMs, set: (ms: number) => (latencyMs = ms) }
    const control = createControlHandler({
      store,
      hostedPayments,
      requestLog,
      notifications,
      faults,
      clock,
      refunds,
      apm,
      latency,
      issuedTokens,
      reset,
      publicUrl,
    })
    mounts.push({ prefix: CONTROL_BASE_PATH, handler: control, instrumented: false })
  }
  server.mount(mounts)

  return {
    url,
    gatewayUrl: url + GATEWAY_BASE_PATH,
    apmUrl: url + APM_BASE_PATH,
    controlUrl: url + CONTROL_BASE_PATH,
    publicUrl,
    async close() {
      refunds.close()
      notifications.close()
      await server.close()
    },
  }
}
