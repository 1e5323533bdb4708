/** Addresses the simulator hands out, all below `${publicUrl}/apm`. */
import type { NextLink } from "../../apm/schemas"
import type { TransactionRecord } from "./transaction-record"

export const STATUS_PATH_PREFIX = "/ms/aapay/v2/transaction"

function statusUri(publicUrl: string, transactionId: number): string {
  return `${publicUrl}/apm${STATUS_PATH_PREFIX}/${transactionId}`
}

/** The simulated consumer app, where a pending payment is approved or rejected. */
function phoneUri(publicUrl: string, transactionId: number): string {
  return `${publicUrl}/apm/phone/${transactionId}`
}

/** Always the status read; while the consumer still has to decide, params.approvalUrl opens their app. */
export function statusLink(publicUrl: string, record: TransactionRecord): NextLink {
  const params: Record<string, string> = { transactionId: String(record.transactionId) }
  if (record.state === "PENDING") params.approvalUrl = phoneUri(publicUrl, record.transactionId)
  return {
    rel: "status",
    type: "GET",
    uri: statusUri(publicUrl, record.transactionId),
    title: "Transaction status",
    params,
    rels: ["status"],
  }
}
