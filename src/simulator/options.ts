/** startSimulator's options, their defaults, and the check that keeps control off the network. */
import { isIP } from "node:net"
import type { RefundSettlement } from "./gateway/refund-settlement"

export interface SimulatorOptions {
  /** 0 picks any free port. Default 4010. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Where browsers reach the simulator (hosted pages, logos, APM links). Default: the listening address. */
  publicUrl?: string
  /** Accepted X-API-KEY values, one merchant each. Default: the public sandbox test key. */
  apiKeys?: string[]
  apmConsumerKey?: string
  apmConsumerSecret?: string
  /** Enables /__sim (control and fault injection). Refused unless bound to a loopback address. */
  control?: boolean
  /** Loaded at start and rewritten after every change. */
  stateFile?: string
  /** One line per request; nothing secret is written. */
  logger?: (line: string) => void
  /** Immediate (default) or PENDING refunds that settle later. */
  refundSettlement?: RefundSettlement
  /** Added before every answer of the gateway, APM and hosted page families. Default 0. */
  latencyMs?: number
}

export const DEFAULTS = {
  port: 4010,
  host: "127.0.0.1",
  /** The public sandbox test key of the real gateway, so store configs work unchanged. */
  apiKey: "5d952446-9004-4023-9eae-a527a152846b",
  apmConsumerKey: "sim-key",
  apmConsumerSecret: "sim-secret",
} as const

export const GATEWAY_BASE_PATH = "/api/phoenix-0.0/psp/api/v1"
export const APM_BASE_PATH = "/apm"
export const CONTROL_BASE_PATH = "/__sim"

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "")
  if (bare === "localhost") return true
  if (isIP(bare) === 4) return bare.startsWith("127.")
  return bare === "::1" || bare.startsWith("::ffff:127.")
}

/** The address a local client uses for the bound host (a wildcard host is reached via loopback). */
export function localBaseUrl(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, "")
  const reachable = bare === "0.0.0.0" ? "127.0.0.1" : bare === "::" ? "::1" : bare
  return `http://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}`
}
