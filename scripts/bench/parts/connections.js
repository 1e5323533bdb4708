/**
 * Connections: how many TCP connections the plugin's gateway client opens for 1,000 gateway
 * calls, one after the other and 50 at a time. Counted where they are made: the client's
 * keep-alive agent's createConnection, wrapped by the bench. The target: never more than the
 * agent's pool size (maxSockets); one, when the calls are sequential.
 */
const { built } = require("../lib/built")
const { API_KEY } = require("../lib/card-provider")
const { mapLimit } = require("../lib/pool")

const CONCURRENCY = 50

function countingClient(gatewayUrl) {
  const { createGatewayClient } = built("gateway/http-gateway-client")
  const client = createGatewayClient({ apiKey: API_KEY, environment: gatewayUrl })
  const agent = client.agent
  const counter = { opened: 0 }
  const createConnection = agent.createConnection
  agent.createConnection = function countedConnection(...args) {
    counter.opened++
    return createConnection.apply(this, args)
  }
  return { client, counter, poolSize: agent.maxSockets }
}

/**
 * @param {{ simulator: { gatewayUrl: string }, calls: number, log: (line: string) => void }} run
 */
async function measureConnections({ simulator, calls, log }) {
  const results = []
  for (const [mode, concurrency] of [
    ["sequential", 1],
    [`${CONCURRENCY} at a time`, CONCURRENCY],
  ]) {
    log(`connections: ${calls} gateway calls, ${mode}`)
    const { client, counter, poolSize } = countingClient(simulator.gatewayUrl)
    try {
      // GET /payment_methods: a read every merchant may make at any time, with no state to prepare.
      await mapLimit(calls, concurrency, () => client.listPaymentMethods())
    } finally {
      client.close()
    }
    results.push({ mode, calls, concurrency, socketsOpened: counter.opened, poolSize, met: counter.opened <= poolSize })
  }
  return results
}

module.exports = { measureConnections }
