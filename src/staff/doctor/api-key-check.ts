/** Check 1: the gateway accepts the API key (GET /payment_methods answers 200). */
import { resolveGatewayBaseUrl } from "../../gateway/environment"
import { AuthenticationError, GatewayUnavailableError, NexiError, UnexpectedResponseError } from "../../http/errors"
import { type DoctorCheck, type DoctorContext, type Finding, fail, pass } from "./check"

const KEY_FIX =
  "Copy the API key of this terminal from Nexi's back office into the provider's apiKey option (NEXI_API_KEY). Sandbox and production keys differ: the key must belong to the environment configured."

export function describeGatewayFailure(error: unknown, url: string): Finding {
  if (error instanceof AuthenticationError) {
    return fail(`the API key is refused; GET ${url} answered 401.`, KEY_FIX)
  }
  if (error instanceof GatewayUnavailableError && error.status === undefined) {
    return fail(
      `the gateway is unreachable at ${url}: ${error.message}`,
      "Check the environment option (sandbox, production or the base URL of your deployment) and that this machine can open outgoing HTTPS connections to it (firewall, proxy, DNS).",
    )
  }
  if (error instanceof GatewayUnavailableError) {
    return fail(
      `GET ${url} answered ${error.status}: the gateway is failing.`,
      "Try again later; if it lasts, ask Nexi's support.",
    )
  }
  if (error instanceof UnexpectedResponseError || error instanceof NexiError) {
    const status = error.status === undefined ? "an answer" : `${error.status}`
    return fail(
      `GET ${url} answered ${status} that is not the gateway's payment methods list: ${error.message}`,
      "Set environment to sandbox, production, or a base URL ending in the version segment (…/api/phoenix-0.0/psp/api/v1).",
    )
  }
  return fail(`GET ${url} failed: ${(error as Error)?.message ?? String(error)}`, "Check the environment option.")
}

export const apiKeyCheck: DoctorCheck = {
  id: "api-key",
  title: "API key",
  blocking: true,
  async run(context: DoctorContext) {
    const url = `${resolveGatewayBaseUrl(context.options.environment)}/payment_methods`
    const read = await context.paymentMethods()
    if (!read.ok) return describeGatewayFailure(read.error, url)
    const count = read.list.paymentMethods.length
    return pass(
      `The gateway accepts the API key: GET ${url} answered 200 with ${count} payment method${count === 1 ? "" : "s"}.`,
    )
  },
}
