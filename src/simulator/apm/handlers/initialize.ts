/**
 * POST /ms/aapay/v2/transaction/{type}/initialize and .../initializeWithIdempotency.
 * Order of checks: type, body, then (with idempotency) the key and a remembered answer
 * before any validation, because a replay must return the first answer even when the
 * same request would now be refused (a second identical refund may exceed the balance).
 */
import { TRANSACTION_TYPES, type TransactionType, TransactionTypeSchema } from "../../../apm/schemas"
import type { SimRequest, SimResponse } from "../../http-types"
import type { ApmContext } from "../context"
import { transactionEnvelope } from "../envelope"
import { fault } from "../faults"
import { readIdempotencyKey, requestFingerprint } from "../idempotency"
import { initiateTransaction } from "../initiate"
import { readJsonBody } from "../request-body"
import { badRequest, envelopeResponse } from "../responses"
import { validateInitializeRequest } from "../validation"

export function initialize(
  ctx: ApmContext,
  req: SimRequest,
  typeParam: string,
  owner: string,
  withIdempotency: boolean,
): SimResponse {
  const type = TransactionTypeSchema.safeParse(typeParam)
  if (!type.success) {
    return badRequest([
      fault(`Transaction type ${typeParam} is not one of ${TRANSACTION_TYPES.join(", ")}`, {
        field: "type",
        type: typeParam,
        allowed: TRANSACTION_TYPES.join(", "),
      }),
    ])
  }
  const reading = readJsonBody(req)
  if ("faults" in reading) return badRequest(reading.faults)
  if (!withIdempotency) return createTransaction(ctx, type.data, reading.body, owner)

  const keyReading = readIdempotencyKey(req.headers)
  if ("fault" in keyReading) return badRequest([keyReading.fault])
  const { key } = keyReading
  const fingerprint = requestFingerprint(type.data, reading.body)
  const remembered = ctx.store.idempotentAnswer(owner, key)
  if (remembered) {
    if (remembered.fingerprint !== fingerprint) {
      return badRequest([
        fault("This Idempotency-Key was already used for a different request", { header: "Idempotency-Key" }),
      ])
    }
    return { status: remembered.status, body: structuredClone(remembered.body) }
  }
  const answer = createTransaction(ctx, type.data, reading.body, owner)
  if (answer.status === 201 || answer.status === 202) {
    ctx.store.rememberAnswer({ owner, key, fingerprint, status: answer.status, body: structuredClone(answer.body) })
    ctx.changed()
  }
  return answer
}

function createTransaction(ctx: ApmContext, type: TransactionType, body: unknown, owner: string): SimResponse {
  const validation = validateInitializeRequest(type, body)
  if ("faults" in validation) return badRequest(validation.faults)
  const initiation = initiateTransaction(ctx, type, validation.request, owner)
  if ("faults" in initiation) return badRequest(initiation.faults)
  ctx.changed()
  const { status, record } = initiation
  const rejection =
    status === 201
      ? {
          message: "The transaction was created but rejected; no further processing is possible",
          faults: [fault(record.additionalInfo, { transactionId: record.transactionId, state: record.state })],
        }
      : undefined
  return envelopeResponse(status, transactionEnvelope(record, ctx.publicUrl, rejection))
}
