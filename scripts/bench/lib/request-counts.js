/**
 * Gateway requests as the simulator recorded them (its request log counts every request of
 * the card gateway and APM families, never control calls), grouped by endpoint template.
 */

const PREFIXES = [
  [/^\/api\/phoenix-0\.0\/psp\/api\/v1/, ""],
  [/^\/apm\/ms\/aapay\/v2/, "APM "],
]

/** The id segments of the contracts' paths (docs/contract/gateway.md, docs/contract/apm.md). */
const ID_SEGMENTS = [
  [/^\/orders\/(?!hpp$|moto$|card_verification$)[^/]+$/, "/orders/{id}"],
  [/^\/operations\/[^/]+/, "/operations/{id}"],
  [/^APM \/transaction\/\d+$/, "APM /transaction/{id}"],
]

/** "GET /api/phoenix-0.0/psp/api/v1/orders/MWPQ1IQ..." -> "GET /orders/{id}". */
function endpointOf({ method, path }) {
  let endpoint = path
  for (const [prefix, replacement] of PREFIXES) endpoint = endpoint.replace(prefix, replacement)
  for (const [pattern, template] of ID_SEGMENTS) endpoint = endpoint.replace(pattern, template)
  return `${method} ${endpoint}`
}

/** Counts by endpoint of the requests recorded after `since` (a count of earlier records). */
function countSince(requests, since) {
  const counts = {}
  for (const request of requests.slice(since)) {
    const endpoint = endpointOf(request)
    counts[endpoint] = (counts[endpoint] ?? 0) + 1
  }
  return counts
}

module.exports = { countSince }
