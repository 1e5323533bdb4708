/**
 * What the plugin needs from the alternative-payment transaction service (docs/contract/apm.md).
 * Implementations return the envelope only when the service accepted the transaction
 * (202, or 200 on a status read); every other status becomes a typed error.
 */
import type { Envelope, ExtendedEnvelope, InitializeRequest, NextLink, TransactionType } from "./schemas"

export interface ApmClient {
  /** `POST /ms/aapay/v2/transaction/{type}/initialize`. */
  initialize(type: TransactionType, body: InitializeRequest): Promise<Envelope>
  /**
   * `POST /ms/aapay/v2/transaction/{type}/initializeWithIdempotency`. `idempotencyKey` is
   * sent as the Idempotency-Key header and must be stable across retries of one operation.
   */
  initializeWithIdempotency(type: TransactionType, body: InitializeRequest, idempotencyKey: string): Promise<Envelope>
  /**
   * The status operation: `GET /ms/aapay/v2/transaction/{transactionId}`, or `nextLink.uri`
   * when the initialize answer carried one.
   */
  getTransaction(transactionId: number | string, nextLink?: NextLink, read?: TransactionRead): Promise<ExtendedEnvelope>
}

export interface TransactionRead {
  /**
   * The caller reads an id it knows may not exist (the doctor's credentials probe): the 404 is
   * the answer it wants, not a sign of misconfiguration, so nothing is logged for it.
   */
  notFoundExpected?: boolean
}
