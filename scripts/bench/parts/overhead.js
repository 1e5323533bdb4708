/**
 * Overhead: each lifecycle call of the card provider against a bare axios call of the same
 * endpoint with the same body on the same keep-alive agent (lib/bare-call.js), with the
 * plugin's gateway client sending the same requests as a third column, to tell the
 * provider's own cost from the transport's. Measured side by side: the three alternate, the
 * order rotating every round, on one simulator, after a discarded warm-up, so machine noise
 * hits all three alike. Every side gets its own payment of the same kind (a capture or a void
 * happens once per payment), prepared before the clocks run with the simulator at zero latency.
 *
 * What each provider call sends, and so what the client and bare columns send:
 *   initiate        POST /orders/hpp (a new order id each call, as the provider makes one)
 *   authorize       GET /orders/{orderId}
 *   capture         POST /operations/{id}/captures (a fresh authorization each call)
 *   refund          POST /operations/{id}/refunds (1.00 of a 24.90 capture)
 *   cancel          GET /orders/{orderId}, then POST /operations/{id}/refunds (the void)
 *   webhook mapping GET /orders/{orderId} (the sync of a notification: verified, then re-read)
 */
const { performance } = require("node:perf_hooks")
const { built } = require("../lib/built")
const { AMOUNT, cardFixtures, initiateInput, nextSessionId } = require("../lib/card-fixtures")
const { cardOptions, createCardProvider, createCardSync } = require("../lib/card-provider")
const { bareReplay, clientReplay, gatewayRequest } = require("../lib/gateway-requests")
const { medusaStandIn } = require("../lib/medusa-stand-in")
const { simControl } = require("../lib/sim-control")
const { round, summarize } = require("../lib/stats")
const { overheadMet } = require("../lib/targets")

const SIDES = ["provider", "client", "bare"]
const REFUNDS_PER_CAPTURE = 8
/** Paid orders the read-only calls (authorize, webhook mapping) cycle through. */
const READ_POOL = 64

function check(condition, message) {
  if (!condition) throw new Error(`overhead: ${message}`)
}

/** `count` rounds of one payment per side, made by `make`. */
async function perSide(fixtures, count, make, label) {
  const payments = await fixtures.many(SIDES.length * count, make, label)
  return Array.from({ length: count }, (_, index) =>
    Object.fromEntries(SIDES.map((side, offset) => [side, payments[SIDES.length * index + offset]])),
  )
}

/**
 * One entry per lifecycle call: `prepare(rounds)` makes every round's inputs (one per side);
 * `provider(input)` is the timed provider call; `requests(input)` describes what it sends to
 * the gateway, which the client and bare columns replay on their own input.
 */
function lifecycleCalls({ provider, sync, fixtures, control, standIn, options }) {
  const { buildHostedOrderRequest } = built("core/card/hosted-order")
  const { newOrderId } = built("gateway/order-id")

  async function readPool() {
    const paid = await fixtures.many(READ_POOL, fixtures.paid, "read")
    const { notifications } = await control.flushNotifications()
    const bodies = new Map(notifications.map((record) => [record.body.operation.orderId, record.body]))
    return paid.map((data) => ({ data, notification: bodies.get(data.order_id) }))
  }
  const cycling = (pool, rounds) =>
    Array.from({ length: rounds }, (_, index) =>
      Object.fromEntries(SIDES.map((side) => [side, pool[index % pool.length]])),
    )

  return [
    {
      name: "initiate",
      prepare: async (rounds) =>
        Array.from({ length: rounds }, () =>
          Object.fromEntries(SIDES.map((side) => [side, nextSessionId("initiate")])),
        ),
      provider: async (sessionId) => {
        const { data } = await provider.initiatePayment(initiateInput(sessionId))
        check(data.hosted_page, "initiatePayment returned no hosted page")
      },
      // The body the provider builds, from the same input, with the new order id it would make.
      requests: (sessionId) => {
        const input = initiateInput(sessionId)
        const body = buildHostedOrderRequest({
          orderId: newOrderId(options.orderIdPrefix),
          sessionId,
          amountMinor: "2490",
          currencyCode: "EUR",
          customer: input.context.customer,
          cart: input.data.nexi_cart,
          options,
        })
        return [gatewayRequest.createHostedOrder(body)]
      },
    },
    {
      name: "authorize",
      prepare: async (rounds) => cycling(await readPool(), rounds),
      provider: async ({ data }) => {
        const result = await provider.authorizePayment({ data })
        check(result.status === "authorized", `authorizePayment answered ${result.status}`)
      },
      requests: ({ data }) => [gatewayRequest.getOrder(data.order_id)],
    },
    {
      name: "capture",
      prepare: async (rounds) => {
        const inputs = await perSide(fixtures, rounds, fixtures.authorized, "capture")
        for (const input of inputs) standIn.addCapture(`capt_${input.provider.session_id}`, AMOUNT)
        return inputs
      },
      provider: async (data) => {
        const result = await provider.capturePayment({ data, context: { idempotency_key: `capt_${data.session_id}` } })
        check(result.data.capture_operation_id, "capturePayment returned no capture operation")
      },
      requests: (data) => [
        gatewayRequest.capture(data.payment_operation_id, {
          amount: data.amount_minor,
          currency: data.currency,
          description: `Capture capt_${data.session_id}`,
        }),
      ],
    },
    {
      name: "refund",
      prepare: async (rounds) => {
        const captures = await perSide(fixtures, Math.ceil(rounds / REFUNDS_PER_CAPTURE), fixtures.captured, "refund")
        return Array.from({ length: rounds }, (_, index) => captures[Math.floor(index / REFUNDS_PER_CAPTURE)])
      },
      provider: async (data) => {
        await provider.refundPayment({
          data,
          amount: { value: "1.00", precision: 20 },
          context: { idempotency_key: `ref_${nextSessionId("r")}` },
        })
      },
      requests: (data) => [
        gatewayRequest.refund(data.capture_operation_id, {
          amount: "100",
          currency: data.currency,
          description: `Refund ${nextSessionId("r")}`,
        }),
      ],
    },
    {
      name: "cancel",
      prepare: (rounds) => perSide(fixtures, rounds, fixtures.authorized, "cancel"),
      provider: async (data) => {
        const result = await provider.cancelPayment({ data, context: { idempotency_key: `ord_${data.session_id}` } })
        check(result.data.status === "canceled", `cancelPayment left ${result.data.status}`)
      },
      requests: (data) => [
        gatewayRequest.getOrder(data.order_id),
        gatewayRequest.refund(data.payment_operation_id, {
          amount: data.amount_minor,
          currency: data.currency,
          description: "Void of an uncaptured authorization",
        }),
      ],
    },
    {
      name: "webhook mapping",
      prepare: async (rounds) => cycling(await readPool(), rounds),
      provider: async ({ notification }) => {
        const rawData = Buffer.from(JSON.stringify(notification))
        const outcome = await sync.notification({
          data: notification,
          rawData,
          headers: { "content-type": "application/json" },
        })
        check(outcome === "completed", `the notification's sync answered ${outcome}`)
      },
      requests: ({ data }) => [gatewayRequest.getOrder(data.order_id)],
    },
  ]
}

async function timed(action) {
  const started = performance.now()
  await action()
  return performance.now() - started
}

/** Runs every round's three sides, rotating which goes first; the first `warmup` rounds are not kept. */
async function measureSideBySide(call, target, inputs, warmup) {
  const times = { provider: [], client: [], bare: [] }
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index]
    const actions = {
      provider: () => call.provider(input.provider),
      client: clientReplay(target, call.requests(input.client)),
      bare: bareReplay(target, call.requests(input.bare)),
    }
    for (let turn = 0; turn < SIDES.length; turn++) {
      const side = SIDES[(index + turn) % SIDES.length]
      const elapsed = await timed(actions[side])
      if (index >= warmup) times[side].push(elapsed)
    }
  }
  return Object.fromEntries(SIDES.map((side) => [side, summarize(times[side])]))
}

function row(name, measured, latencyMs) {
  const { provider, client, bare } = measured
  const ms = ({ p50, p99 }) => ({ p50: round(p50), p99: round(p99) })
  const figures = {
    call: name,
    /** What the provider adds to the bare call at the median, in ms: the figure that does not depend on the latency. */
    addedMs: round(provider.p50 - bare.p50),
    medianRatio: round(provider.p50 / bare.p50),
    p99Ratio: round(provider.p99 / bare.p99),
  }
  return {
    ...figures,
    samples: provider.n,
    providerMs: ms(provider),
    clientMs: ms(client),
    bareMs: ms(bare),
    met: overheadMet(latencyMs, figures),
  }
}

/**
 * @param {{ simulator: { gatewayUrl: string, controlUrl: string }, passes: Array<{ latencyMs: number, samples: number, warmup: number }>, log: (line: string) => void }} run
 */
async function measureOverhead({ simulator, passes, log }) {
  const { parseNexiOptions } = built("core/options")
  const control = simControl(simulator.controlUrl)
  const standIn = medusaStandIn()
  const options = parseNexiOptions(cardOptions(simulator.gatewayUrl))
  const measured = createCardProvider(standIn.cradle, options)
  const preparing = createCardProvider(standIn.cradle, options)
  const fixtures = cardFixtures({ provider: preparing.provider, control, standIn })
  const sync = createCardSync(standIn.cradle, measured.gatewayClient)
  const calls = lifecycleCalls({ provider: measured.provider, sync, fixtures, control, standIn, options })
  const target = {
    gatewayUrl: simulator.gatewayUrl,
    client: measured.gatewayClient,
    agent: measured.gatewayClient.agent,
  }
  const results = []
  try {
    for (const pass of passes) {
      const rows = []
      for (const call of calls) {
        await control.setLatency(0)
        const inputs = await call.prepare(pass.samples + pass.warmup)
        await control.flushNotifications()
        await control.setLatency(pass.latencyMs)
        log(
          `overhead (${pass.latencyMs} ms gateway latency): ${call.name}, ${pass.samples} rounds after ${pass.warmup} of warm-up`,
        )
        rows.push(row(call.name, await measureSideBySide(call, target, inputs, pass.warmup), pass.latencyMs))
      }
      results.push({ latencyMs: pass.latencyMs, rows })
    }
  } finally {
    await control.setLatency(0)
    measured.gatewayClient.close()
    preparing.gatewayClient.close()
  }
  return { passes: results }
}

module.exports = { measureOverhead }
