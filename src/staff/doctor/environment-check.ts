/** Check 2: which gateway the store talks to. A custom URL (the simulator, a proxy) is said out loud. */
import { GATEWAY_BASE_URLS, resolveGatewayBaseUrl } from "../../gateway/environment"
import { type DoctorCheck, pass, warn } from "./check"

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
