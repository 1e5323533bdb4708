/**
 * The "bare HTTP call" the provider is compared with: one axios request on the very keep-alive
 * agent the provider's gateway client uses, the same headers, the same body, serialised and
 * the answer parsed by axios itself. Nothing else: no schema, no retries, deadline, logging or
 * error mapping. Redirects and the proxy lookup are off, as in the plugin's transport: axios's
 * defaults would put follow-redirects and a read of HTTP(S)_PROXY into every bare call, work the
 * plugin does not do, and flatter it. Everything a call needs (ids, keys, the body) is prepared
 * by the caller before the clock starts.
 */
const { randomUUID } = require("node:crypto")
const axios = require("axios")
const { API_KEY } = require("./card-provider")

/** The headers the gateway client sends (docs/contract/gateway.md), computed outside the timed region. */
function gatewayHeaders({ idempotencyKey } = {}) {
  const headers = {
    "X-API-KEY": API_KEY,
    "Content-Type": "application/json",
    Accept: "application/json",
    "Correlation-Id": randomUUID(),
  }
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey
  return headers
}

/**
 * A prepared request: `{ method, url, headers, data? }`, `data` the JSON body as an object.
 * @returns {{ method: string, url: string, headers: Record<string, string>, data?: unknown }}
 */
function prepareGatewayRequest(gatewayUrl, method, path, { json, idempotencyKey } = {}) {
  return { method, url: `${gatewayUrl}${path}`, headers: gatewayHeaders({ idempotencyKey }), data: json }
}

/** Sends a prepared request on `agent`; resolves with the parsed answer, rejects on a non-2xx (axios's default). */
async function bareCall(agent, prepared) {
  const response = await axios.request({ ...prepared, httpAgent: agent, maxRedirects: 0, proxy: false })
  return response.data
}

module.exports = { bareCall, prepareGatewayRequest }
