/**
 * A gateway operation in one line, for the read model's tests: an id, a type, a result and
 * the second (after a fixed instant) it happened, so a row states its own order of events.
 * Amount 19.99 EUR unless `fields` say otherwise; `second` undefined leaves the time out.
 */
import type { Operation, OperationResult, OperationType } from "../../gateway/schemas"

export function at(second: number): string {
  return new Date(Date.UTC(2026, 10, 20, 10, 0, second)).toISOString()
}

export function op(
  operationId: string,
  operationType: OperationType,
  operationResult: OperationResult,
  second: number | undefined,
  fields: Partial<Operation> = {},
): Operation {
  return {
    operationId,
    operationType,
    operationResult,
    ...(second === undefined ? {} : { operationTime: at(second) }),
    operationAmount: "1999",
    operationCurrency: "EUR",
    cancelledOperationId: "",
    ...fields,
  }
}
