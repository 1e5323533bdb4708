/**
 * The ledger's warnings on one payment (a write whose outcome is not known, a mobile refund the
 * scheme rejected or has not settled), one callout each, above the payment: the
 * gateway's record alone would not show them, and acting without reading them can move money twice.
 */
import { Alert } from "@medusajs/ui"
import type { NexiLedgerIssue } from "../../staff/contract"

export function LedgerIssues(props: { issues: NexiLedgerIssue[] }) {
  if (!props.issues.length) return null
  return (
    <div className="flex flex-col gap-y-2 px-6 pt-4" data-testid="nexi-ledger-issues">
      {props.issues.map((issue) => (
        <Alert
          key={issue.write_id}
          variant={issue.problem === "scheme_rejected" ? "error" : "warning"}
          data-testid="nexi-ledger-issue"
          data-problem={issue.problem}
        >
          {issue.message}
        </Alert>
      ))}
    </div>
  )
}
