/**
 * Recovery of a mobile-payment write by its request's key. The APM service has no lookup by
 * idempotency key: its record of a write is the key itself, and the same key with the same
 * body replays the first answer. So what became of a write is learnt by sending the identical
 * request again under its key. That either replays the transaction made, or, if none was made,
 * makes it now; either way exactly one exists after.
 */
import type { ApmClient } from "../apm/apm-client"
import type { Envelope, InitializeRequest, TransactionType } from "../apm/schemas"
import { InvalidRequestError, NotFoundError, OutcomeUnknownError, UnexpectedResponseError } from "../http/errors"
import type { Recovery } from "./send-once"

/**
 * A 400 naming the Idempotency-Key header (fault params `header=Idempotency-Key`): the key
 * was used for a different body. Read as "not made" it would let the write be sent again.
 */
function isKeyConflict(error: unknown): boolean {
  return (
    error instanceof InvalidRequestError &&
    error.details.some((detail) => detail.description.includes("header=Idempotency-Key"))
  )
}

export function transactionIdOf(envelope: Envelope): string {
  const transaction = envelope.response?.request?.transaction
  const id = transaction?.transactionId ?? envelope.nextLink?.params?.transactionId
  if (id === undefined)
    throw new UnexpectedResponseError("apm", "The mobile payment service accepted the write but named no transaction")
  return String(id)
}

/** One request of a write, under its key: sent first, and sent again identically to find it. */
export class ByRequestKey implements Recovery {
  // The key makes a repeat harmless: a refusal means nothing was made under it.
  readonly refusalMayMeanMade = false
  readonly whenUnreadable = "wait"
  /** The service's last answer for the key, when it named a transaction. */
  answer?: Envelope

  constructor(
    private readonly client: ApmClient,
    private readonly type: TransactionType,
    private readonly request: InitializeRequest,
    private readonly key: string,
  ) {}

  /** Sends the request; the new transaction's id. */
  async send(): Promise<string> {
    try {
      this.answer = await this.client.initializeWithIdempotency(this.type, this.request, this.key)
    } catch (error) {
      // The key is known with another body: something was made under it, and this request cannot tell what.
      if (isKeyConflict(error)) throw new OutcomeUnknownError("apm", (error as Error).message, { cause: error })
      throw error
    }
    return transactionIdOf(this.answer)
  }

  /** The transaction made under the key, or undefined when none moves money. */
  async find(): Promise<string | undefined> {
    try {
      return await this.send()
    } catch (error) {
      // Refused (400), unknown (404), or created but rejected (201): no money moved under this key.
      if (error instanceof InvalidRequestError || error instanceof NotFoundError) return undefined
      throw error
    }
  }
}
