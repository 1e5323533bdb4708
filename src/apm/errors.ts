/**
 * The one error only the alternative-payment service raises. It lives beside the service's
 * schemas because it carries an envelope; the shared error classes (src/http/errors.ts) know
 * nothing of either API.
 */
import { type ErrorDetail, InvalidRequestError } from "../http/errors"
import type { Envelope } from "./schemas"

/**
 * The alternative-payment service's 201 "created but rejected" (or an accepted status whose
 * envelope says valid=false): a decline, never a success. The envelope is kept so the
 * provider can show the reason the scheme gave.
 */
export class TransactionRejectedError extends InvalidRequestError {
  readonly envelope: Envelope

  constructor(message: string, envelope: Envelope, options: { status?: number; details?: ErrorDetail[] } = {}) {
    super("apm", message, options)
    this.envelope = envelope
  }
}
