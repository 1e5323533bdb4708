/**
 * The "bare HTTP call" the provider is compared with: node's http.request on the very
 * keep-alive agent the provider's gateway client uses, the same headers, the same JSON
 * body, the answer read to its end and parsed. Nothing else: no schema, no retries, no
 * logging, no error mapping. Everything a call needs (ids, keys, the body) is prepared by
 * the caller before the clock starts.
 */
const http = require("node:http")
const { randomUUID } = require("node:crypto")
const { API_KEY } = require("./card-provider")

/** The headers the gateway client sends (docs/contract/gateway.md), computed outside the timed region. */
function gatewayHeaders({ body, idempotencyKey } = {}) {
  const headers = {
    "X-API-KEY": API_KEY,
    "Content-Type": "application/json",
    Accept: "application/json",
    "Correlation-Id": randomUUID(),
  }
  if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body))
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey
  return headers
}

/**
 * A prepared request: `{ method, url, headers, body? }` with `body` already JSON text.
 * @returns {{ method: string, url: string, headers: Record<string, string>, body?: string }}
 */
function prepareGatewayRequest(gatewayUrl, method, path, { json, idempotencyKey } = {}) {
  const body = json === undefined ? undefined : JSON.stringify(json)
  return { method, url: `${gatewayUrl}${path}`, headers: gatewayHeaders({ body, idempotencyKey }), body }
}

/** Sends a prepared request on `agent`; resolves with the parsed answer, rejects on a non-2xx. */
function bareCall(agent, prepared) {
  return new Promise((resolve, reject) => {
    const request = http.request(prepared.url, { method: prepared.method, agent, headers: prepared.headers }, (response) => {
      const chunks = []
      response.on("data", (chunk) => chunks.push(chunk))
      response.on("error", reject)
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        const status = response.statusCode ?? 0
        if (status < 200 || status > 299) {
          reject(new Error(`bare ${prepared.method} ${prepared.url} answered ${status}: ${text.slice(0, 300)}`))
          return
        }
        resolve(text ? JSON.parse(text) : undefined)
      })
    })
    request.on("error", reject)
    request.end(prepared.body)
  })
}

module.exports = { bareCall, prepareGatewayRequest }
