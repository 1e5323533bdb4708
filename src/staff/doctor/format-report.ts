/** nexi-doctor's text output: one line per check (PASS/FAIL/WARN, detail, fix), then the verdict. */
import type { DoctorReport } from "./check"

const LABELS = { pass: "PASS", fail: "FAIL", warn: "WARN" } as const

export function formatReport(report: DoctorReport): string {
  const lines = report.checks.map(
    (check) => `${LABELS[check.status]}  ${check.title}: ${check.detail}${check.fix ? ` Fix: ${check.fix}` : ""}`,
  )
  lines.push(report.blocking ? "Not ready to go live: fix the failed checks above." : "No blocking problem found.")
  return lines.join("\n")
}
