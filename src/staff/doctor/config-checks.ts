/**
 * The doctor's checks of the configuration itself, read without a call: which gateway the store
 * talks to, whether the gateway and shoppers can reach the addresses it gives them, and what the
 * capture type means for staff.
 */
import { isIP } from "node:net"
import { GATEWAY_BASE_URLS, resolveGatewayBaseUrl } from "../../gateway/environment"
import { type DoctorCheck, fail, pass, warn } from "./check"

// Whether a URL's host name is one the internet can reach: the gateway delivers notifications
// from Nexi's servers, and shoppers' browsers follow the return URLs from anywhere.

/** Top-level names that never resolve on the public internet (RFC 2606, 6761, 6762, 8375). */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "lan",
  "home.arpa",
  "test",
  "invalid",
  "example",
  "intranet",
  "corp",
]

function ipv4Range(address: string): string | undefined {
  const [a, b] = address.split(".").map(Number)
  if (a === 127) return "loopback, 127.0.0.0/8"
  if (a === 10) return "private, 10.0.0.0/8"
  if (a === 172 && b >= 16 && b <= 31) return "private, 172.16.0.0/12"
  if (a === 192 && b === 168) return "private, 192.168.0.0/16"
  if (a === 169 && b === 254) return "link-local, 169.254.0.0/16"
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT, 100.64.0.0/10"
  if (a === 0) return "unspecified, 0.0.0.0/8"
  return undefined
}

function ipv6Range(address: string): string | undefined {
  const bare = address.toLowerCase()
  if (bare === "::1") return "loopback, ::1"
  if (bare === "::") return "unspecified, ::"
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)
  if (mapped) return ipv4Range(mapped[1])
  if (/^f[cd][0-9a-f]{0,2}:/.test(bare)) return "unique local, fc00::/7"
  if (/^fe[89ab][0-9a-f]?:/.test(bare)) return "link-local, fe80::/10"
  return undefined
}

/**
 * Why `hostname` (as `URL.hostname` gives it, IPv6 in brackets) is not a public host name, or
 * undefined when it is one. Every IP literal is refused: a certificate for an address is rare,
 * and an address says nothing about which server answers after a move.
 */
export function nonPublicHostReason(hostname: string): string | undefined {
  const host = hostname
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[|\]$/g, "")
  const version = isIP(host)
  if (version !== 0) {
    const range = version === 4 ? ipv4Range(host) : ipv6Range(host)
    return range
      ? `${host} is an IP address in a range the internet cannot reach (${range})`
      : `${host} is an IP address, not a host name`
  }
  if (host === "localhost") return "localhost is this machine, not a public host"
  if (!host.includes(".")) return `${host} is a single-label name, which resolves only inside a private network`
  const suffix = PRIVATE_SUFFIXES.find((name) => host.endsWith(`.${name}`))
  if (suffix) return `${host} ends in .${suffix}, a name that does not resolve on the public internet`
  return undefined
}

/** Check 2: which gateway the store talks to. A custom URL (the simulator, a proxy) is said out loud. */
export const environmentCheck: DoctorCheck = {
  id: "environment",
  title: "Gateway environment",
  blocking: false,
  run({ options }) {
    const { environment } = options
    if (environment === "production") {
      return pass(`production (${GATEWAY_BASE_URLS.production}): real cards, real money.`)
    }
    if (environment === "sandbox") {
      return pass(
        `sandbox (${GATEWAY_BASE_URLS.sandbox}): test cards only, no money moves. When going live, set environment to "production" with the production API key.`,
      )
    }
    return warn(
      `a custom URL (${resolveGatewayBaseUrl(environment)}): neither Nexi's sandbox nor production. That is right for the simulator or a proxy in front of Nexi, never for a live store talking to Nexi directly.`,
      'Set environment to "sandbox" to test against Nexi, or "production" to go live.',
    )
  },
}

/**
 * Check 3: the gateway can deliver notifications to notificationUrl. It calls from the
 * internet, to https on port 443 (docs/contract/gateway.md#notifications): a loopback, private
 * or single-label host, or another port, never receives them, and payments then complete only
 * when the job polls them.
 */
export const notificationUrlCheck: DoctorCheck = {
  id: "notification-url",
  title: "Notification URL",
  blocking: true,
  run({ options }) {
    const value = options.notificationUrl
    const url = new URL(value)
    const problems: string[] = []
    if (url.protocol !== "https:") problems.push(`it uses ${url.protocol.replace(":", "")}, not https`)
    if (url.port !== "" && url.port !== "443") problems.push(`it names port ${url.port}, not 443`)
    const hostReason = nonPublicHostReason(url.hostname)
    if (hostReason) problems.push(hostReason)
    if (problems.length === 0) {
      return pass(
        `${value} is https on port 443 with a public host name; the gateway notifies ${value.replace(/\/+$/, "")}/hooks/payment/nexi_<entry id>.`,
      )
    }
    return fail(
      `notificationUrl ${value} cannot receive the gateway's notifications: ${problems.join("; ")}.`,
      "Set notificationUrl to the store backend's public https address on port 443 (for example https://api.your-shop.com), the address Nexi's servers reach from the internet; behind a proxy or tunnel, its public name.",
    )
  },
}

const PLACEHOLDERS = ["{cart_id}", "{session_id}"]

function problemsOf(option: "resultUrl" | "cancelUrl", value: string): { blocking: string[]; advisory: string[] } {
  const url = new URL(value)
  const blocking: string[] = []
  const advisory: string[] = []
  if (url.protocol !== "https:") blocking.push(`${option} ${value} uses ${url.protocol.replace(":", "")}, not https`)
  if (!PLACEHOLDERS.some((placeholder) => value.includes(placeholder))) {
    blocking.push(`${option} ${value} carries neither {cart_id} nor {session_id}`)
  }
  const hostReason = nonPublicHostReason(url.hostname)
  if (hostReason) advisory.push(`${option}: ${hostReason}, so shoppers' browsers cannot reach it`)
  return { blocking, advisory }
}

/**
 * Check 4: the pages the hosted page sends the shopper back to. https, because the shopper
 * leaves a payment page for them; and a `{cart_id}` (or `{session_id}`) placeholder, because
 * without it the storefront cannot tell which cart came back.
 */
export const returnUrlsCheck: DoctorCheck = {
  id: "return-urls",
  title: "Return URLs",
  blocking: true,
  run({ options }) {
    const found = (["resultUrl", "cancelUrl"] as const).map((option) => problemsOf(option, options[option]))
    const blocking = found.flatMap((entry) => entry.blocking)
    const advisory = found.flatMap((entry) => entry.advisory)
    if (blocking.length > 0) {
      return fail(
        `${[...blocking, ...advisory].join("; ")}.`,
        "Set resultUrl and cancelUrl to https pages of the storefront that carry the cart, e.g. https://shop.example.com/checkout/nexi/result?cart_id={cart_id}; the plugin fills in {cart_id} and {session_id}.",
      )
    }
    if (advisory.length > 0) {
      return warn(`${advisory.join("; ")}.`, "Use the storefront's public https address before going live.")
    }
    return pass(
      `resultUrl ${options.resultUrl} and cancelUrl ${options.cancelUrl} are https and carry the cart placeholder.`,
    )
  },
}

/** Check 8: the capture type, and what it means for the store's staff. */
export const captureTypeCheck: DoctorCheck = {
  id: "capture-type",
  title: "Capture type",
  blocking: false,
  run({ options }) {
    if (options.captureType === "IMPLICIT") {
      return pass(
        "IMPLICIT: the money is taken when the shopper pays; orders arrive captured, and undoing a payment is a refund.",
      )
    }
    return pass(
      "EXPLICIT: the shopper's payment is only authorized; staff capture it from the order (Medusa's Capture) before the authorization expires, and cancelling an uncaptured order releases the hold without a refund.",
    )
  },
}
