/**
 * The doctor: every configuration check a merchant runs before going live, in a fixed order,
 * all at once. A check that throws is reported as failed with its message rather than stopping
 * the others. `blocking` is true when a check that stops going live failed.
 */
import {
  type DoctorCheck,
  type DoctorContext,
  type DoctorInput,
  type DoctorReport,
  type Finding,
  readPaymentMethodsOnce,
} from "./check"
import { captureTypeCheck, environmentCheck, notificationUrlCheck, returnUrlsCheck } from "./config-checks"
import { apiKeyCheck, apmCredentialsCheck, clockCheck, currenciesCheck } from "./gateway-checks"

export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  apiKeyCheck,
  environmentCheck,
  notificationUrlCheck,
  returnUrlsCheck,
  currenciesCheck,
  apmCredentialsCheck,
  clockCheck,
  captureTypeCheck,
]

async function runOne(check: DoctorCheck, context: DoctorContext): Promise<Finding> {
  try {
    return await check.run(context)
  } catch (error) {
    return {
      status: "fail",
      detail: `The check could not run: ${(error as Error)?.message ?? String(error)}`,
      fix: "Report this with the message above.",
    }
  }
}

export async function runDoctor(
  input: DoctorInput,
  checks: readonly DoctorCheck[] = DOCTOR_CHECKS,
): Promise<DoctorReport> {
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

/** nexi-doctor's text output: one line per check (PASS/FAIL/WARN, detail, fix), then the verdict. */
const LABELS = { pass: "PASS", fail: "FAIL", warn: "WARN" } as const

export function formatReport(report: DoctorReport): string {
  const lines = report.checks.map(
    (check) => `${LABELS[check.status]}  ${check.title}: ${check.detail}${check.fix ? ` Fix: ${check.fix}` : ""}`,
  )
  lines.push(report.blocking ? "Not ready to go live: fix the failed checks above." : "No blocking problem found.")
  return lines.join("\n")
}
