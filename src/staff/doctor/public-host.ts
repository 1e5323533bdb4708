/**
 * Whether a URL's host name is one the internet can reach: the gateway delivers notifications
 * from Nexi's servers, and shoppers' browsers follow the return URLs from anywhere.
 */
import { isIP } from "node:net"

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
