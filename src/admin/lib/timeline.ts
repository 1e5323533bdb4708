/**
 * Links between the operations of a card payment's timeline, in words: a CANCEL or VOID names
 * the operation it undid (cancelled_operation_id), and the undone operation keeps its own
 * EXECUTED result at the gateway, so without a note the rolled-back capture would read as if
 * it still held money.
 */
import type { NexiTimelineOperation } from "../../staff/contract"

const UNDO_VERBS: Record<string, string> = { CANCEL: "Cancels", VOID: "Voids" }
const UNDONE_VERBS: Record<string, string> = { CANCEL: "Cancelled by", VOID: "Voided by" }

/** Operations that failed undid nothing; only these results count as done. */
const DONE_RESULTS = new Set(["EXECUTED", "VOIDED", "AUTHORIZED"])

/** Ids of the operations a CANCEL or VOID that succeeded rolled back. */
export function undoneOperationIds(operations: readonly NexiTimelineOperation[]): Set<string> {
  return new Set(
    operations.flatMap((operation) =>
      operation.cancelled_operation_id && DONE_RESULTS.has(operation.result) ? [operation.cancelled_operation_id] : [],
    ),
  )
}

/** One note per operation id: what this operation undid, or what undid it. */
export function timelineNotes(operations: readonly NexiTimelineOperation[]): Map<string, string> {
  const notes = new Map<string, string>()
  for (const operation of operations) {
    const target = operation.cancelled_operation_id
    if (!target) continue
    notes.set(operation.operation_id, `${UNDO_VERBS[operation.type] ?? "Undoes"} ${target}`)
    if (DONE_RESULTS.has(operation.result)) {
      notes.set(target, `${UNDONE_VERBS[operation.type] ?? "Undone by"} ${operation.operation_id}`)
    }
  }
  return notes
}
