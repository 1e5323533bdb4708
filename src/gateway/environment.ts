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
