/**
 * Keeps web pages in the developer's browser away from the control API. A page cannot make
 * the browser send a loopback Host header for its own domain (DNS rebinding), cannot send
 * application/json cross-site without a preflight the simulator never allows (no CORS headers
 * anywhere), and always sends an Origin header on a cross-site POST. So the control API
 * answers only requests whose Host (and Origin, when sent) is loopback or the publicUrl's
 * host, and whose body, if any, is declared as application/json.
 */

import { errorAnswer, SIM_CODES } from "./http-helpers"
import type { SimRequest, SimResponse } from "./http-types"
import { isLoopbackHost } from "./options"

/** "localhost", "127.0.0.1", "[::1]" or "sim.example" followed by an optional port, nothing else. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i

/** The hostname of a Host header, lowercased; undefined when it is not a plain host[:port]. */
export function hostnameOf(hostHeader: string): string | undefined {
  const match = HOST_HEADER.exec(hostHeader.trim())
  return match ? match[1].toLowerCase() : undefined
}

export interface ControlGuard {
  /** The answer refusing the request, or undefined when the control API may serve it. */
  refusal(req: SimRequest): SimResponse | undefined
}

/** publicUrl: the configured public base URL; its hostname is accepted besides loopback ones, on any port. */
export function createControlGuard(publicUrl: string): ControlGuard {
  const publicHost = publicHostname(publicUrl)
  const allowed = (hostname: string | undefined) =>
    hostname !== undefined && (isLoopbackHost(hostname) || hostname === publicHost)

  return {
    refusal(req) {
      const host = req.headers.host ?? ""
      if (!allowed(hostnameOf(host))) {
        return errorAnswer(
          403,
          SIM_CODES.forbidden,
          `the control API answers only loopback hosts${publicHost ? ` and ${publicHost}` : ""}, not Host "${host || "none"}"`,
        )
      }
      const origin = req.headers.origin
      if (origin !== undefined && !allowed(originHostname(origin))) {
        return errorAnswer(
          403,
          SIM_CODES.forbidden,
          `the control API refuses requests from web pages of Origin "${origin}"`,
        )
      }
      const contentType = req.headers["content-type"] ?? ""
      if (req.rawBody !== "" && !isApplicationJson(contentType)) {
        return errorAnswer(
          415,
          SIM_CODES.unsupportedMediaType,
          `a control request with a body must have Content-Type: application/json (got "${contentType || "none"}")`,
        )
      }
      return undefined
    },
  }
}

function isApplicationJson(contentType: string): boolean {
  return contentType.split(";")[0].trim().toLowerCase() === "application/json"
}

function publicHostname(publicUrl: string): string | undefined {
  try {
    return hostnameOf(new URL(publicUrl).host)
  } catch {
    return undefined
  }
}

/** The hostname of an Origin header ("null" and anything unparsable give undefined). */
function originHostname(origin: string): string | undefined {
  try {
    const url = new URL(origin)
    return url.protocol === "http:" || url.protocol === "https:" ? hostnameOf(url.host) : undefined
  } catch {
    return undefined
  }
}
