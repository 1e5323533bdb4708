import { parseBaseUrl } from "../http/base-url"

export const GATEWAY_BASE_URLS = {
  sandbox: "https://xpaysandbox.nexigroup.com/api/phoenix-0.0/psp/api/v1",
  production: "https://xpay.nexigroup.com/api/phoenix-0.0/psp/api/v1",
} as const

/** "sandbox", "production", or the base URL of another deployment (the simulator). */
export type GatewayEnvironment = keyof typeof GATEWAY_BASE_URLS | (string & {})

export function resolveGatewayBaseUrl(environment: GatewayEnvironment): string {
  if (environment === "sandbox") return GATEWAY_BASE_URLS.sandbox
  if (environment === "production") return GATEWAY_BASE_URLS.production
  return parseBaseUrl(environment, "environment")
}

/**
 * XPay Build's browser SDK (`hfsdk.js`, the global `Build`): on the gateway's front end, which the
 * public record names for the sandbox and production (gateway-facts.md; not verified against
 * them). Another deployment (the simulator) serves it beside the card fields it answered.
 */
const BUILD_SDK_HOSTS = { sandbox: "https://stg-ta.nexigroup.com", production: "https://xpay.nexigroup.com" } as const
const BUILD_SDK_PATH = "/monetaweb/resources/hfsdk.js"

export function buildSdkUrl(environment: GatewayEnvironment, fieldSrc: string): string {
  const named = environment === "sandbox" || environment === "production"
  return `${named ? BUILD_SDK_HOSTS[environment as keyof typeof BUILD_SDK_HOSTS] : new URL(fieldSrc).origin}${BUILD_SDK_PATH}`
}
