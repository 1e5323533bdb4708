/**
 * The doctor: every configuration check a merchant runs before going live, in a fixed order,
 * all at once. A check that throws is reported as failed with its message rather than stopping
 * the others. `blocking` is true when a check that stops going live failed.
 */
import type { NexiDoctorResponse } from "../contract"
import {
  type DoctorCheck,
  type DoctorContext,
  type DoctorInput,
  type Finding,
  fail,
  readPaymentMethodsOnce,
} from "./check"
import { captureTypeCheck, environmentCheck, notificationUrlCheck, returnUrlsCheck } from "./config-checks"
import { apiKeyCheck, apmCredentialsCheck, clockCheck, currenciesCheck, walletsCheck } from "./gateway-checks"

export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  apiKeyCheck,
  environmentCheck,
  notificationUrlCheck,
  returnUrlsCheck,
  currenciesCheck,
  apmCredentialsCheck,
  clockCheck,
  captureTypeCheck,
  walletsCheck,
]

async function runOne(check: DoctorCheck, context: DoctorContext): Promise<Finding> {
  try {
    return await check.run(context)
  } catch (error) {
    return fail(
      `The check could not run: ${(error as Error)?.message ?? String(error)}`,
      "Report this with the message above.",
    )
  }
}

export async function runDoctor(
  input: DoctorInput,
  checks: readonly DoctorCheck[] = DOCTOR_CHECKS,
): Promise<NexiDoctorResponse> {
  const context: DoctorContext = {
    options: input.options,
    clients: input.clients,
    currencies: input.currencies,
    now: input.now ?? Date.now,
    fetch: input.fetch ?? globalThis.fetch,
    paymentMethods: readPaymentMethodsOnce(input.clients.gateway),
  }
  const findings = await Promise.all(checks.map((check) => runOne(check, context)))
  const results = checks.map((check, index) => ({ id: check.id, title: check.title, ...findings[index] }))
  const blocking = checks.some((check, index) => check.blocking && findings[index].status === "fail")
  return { checks: results, blocking }
}
