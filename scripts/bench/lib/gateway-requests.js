/**
 * The gateway requests the overhead part replays below the provider, each in two ways: through
 * the plugin's gateway client (transport, retries, answer validation) and as a bare HTTP call
 * on the same agent. A request is described once, `{ kind, ... }`, with every id, key and body
 * fixed before any clock starts, so both ways send exactly the same thing.
 */
const { randomUUID } = require("node:crypto")
const { bareCall, prepareGatewayRequest } = require("./bare-call")

const segment = encodeURIComponent

const KINDS = {
  getOrder: {
    bare: (url, { orderId }) => prepareGatewayRequest(url, "GET", `/orders/${segment(orderId)}`),
    client: (client, { orderId }) => client.getOrder(orderId),
  },
  createHostedOrder: {
    bare: (url, { body }) => prepareGatewayRequest(url, "POST", "/orders/hpp", { json: body }),
    client: (client, { body }) => client.createHostedOrder(body),
  },
  capture: {
    bare: (url, { operationId, body, key }) =>
      prepareGatewayRequest(url, "POST", `/operations/${segment(operationId)}/captures`, {
        json: body,
        idempotencyKey: key,
      }),
    client: (client, { operationId, body, key }) => client.capture(operationId, body, key),
  },
  refund: {
    bare: (url, { operationId, body, key }) =>
      prepareGatewayRequest(url, "POST", `/operations/${segment(operationId)}/refunds`, {
        json: body,
        idempotencyKey: key,
      }),
    client: (client, { operationId, body, key }) => client.refund(operationId, body, key),
  },
}

/** Request descriptions; writes get their idempotency key here, outside any timed region. */
const gatewayRequest = {
  getOrder: (orderId) => ({ kind: "getOrder", orderId }),
  createHostedOrder: (body) => ({ kind: "createHostedOrder", body }),
  capture: (operationId, body) => ({ kind: "capture", operationId, body, key: randomUUID() }),
  refund: (operationId, body) => ({ kind: "refund", operationId, body, key: randomUUID() }),
}

/** Prepares `requests` as bare calls on the client's agent; the function sends them one after the other. */
function bareReplay({ gatewayUrl, agent }, requests) {
  const prepared = requests.map((request) => KINDS[request.kind].bare(gatewayUrl, request))
  return async () => {
    for (const request of prepared) await bareCall(agent, request)
  }
}

/** The same requests through the plugin's gateway client. */
function clientReplay({ client }, requests) {
  return async () => {
    for (const request of requests) await KINDS[request.kind].client(client, request)
  }
}

module.exports = { bareReplay, clientReplay, gatewayRequest }
