/**
 * Check 6: the alternative-payment service accepts the consumer key and secret. A status read of
 * a transaction that cannot exist answers 404 once the credentials are accepted and 401 when they
 * are not, and opens nothing. The client is told the 404 is expected, so a passing check logs
 * no warning about a missing transaction.
 */
import { AuthenticationError, GatewayUnavailableError, NotFoundError } from "../../http/errors"
import { type DoctorCheck, fail, pass } from "./check"

/** An int64 id far above any the service issues; its status read finds nothing. */
export const PROBE_TRANSACTION_ID = "999999999999999999"

export const apmCredentialsCheck: DoctorCheck = {
  id: "apm-credentials",
  title: "Mobile payment credentials",
  blocking: true,
  async run({ options, clients }) {
    if (!options.apm || !clients.apm) return pass("apm is not configured: mobile payments are off, nothing to check.")
    const url = `${options.apm.environment.replace(/\/+$/, "")}/ms/aapay/v2/transaction/${PROBE_TRANSACTION_ID}`
    try {
      await clients.apm.getTransaction(PROBE_TRANSACTION_ID, undefined, { notFoundExpected: true })
      return pass(`The service accepts the consumer key and secret (GET ${url} answered 200).`)
    } catch (error) {
      if (error instanceof NotFoundError) {
        return pass(
          `The service accepts the consumer key and secret: a status read of an unknown transaction (GET ${url}) answered 404.`,
        )
      }
      if (error instanceof AuthenticationError) {
        return fail(
          `the consumer key and secret are refused; GET ${url} answered ${error.status ?? 401}.`,
          "Copy apm.consumerKey and apm.consumerSecret from the credentials Nexi issued for this merchant (apm.merchantId) and environment.",
        )
      }
      if (error instanceof GatewayUnavailableError && error.status === undefined) {
        return fail(
          `the service is unreachable at ${url}: ${error.message}`,
          "Check apm.environment (the service's base URL) and outgoing HTTPS from this machine.",
        )
      }
      return fail(
        `GET ${url} failed: ${(error as Error).message}`,
        "Check that apm.environment is the service's base URL.",
      )
    }
  },
}
