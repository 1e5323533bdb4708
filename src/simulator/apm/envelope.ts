/**
 * The response envelope of docs/contract/apm.md, in its plain form (initialize answers and errors)
 * and its extended form (status reads). The error member is spelled componsiteFault: that
 * spelling is the contract.
 */
import {
  type Envelope,
  type ExtendedEnvelope,
  RESPONSE_CODES,
  type ResponseCode,
  type Transaction,
  type TransactionState,
} from "../../apm/schemas"
import type { Fault } from "./faults"
import { statusLink } from "./links"
import { SCHEMES } from "./schemes"
import type { TransactionRecord } from "./transaction-record"

const RESPONSE_CODE_OF_STATE: Record<TransactionState, ResponseCode> = {
  INITIALIZED: RESPONSE_CODES.PENDING,
  PENDING: RESPONSE_CODES.PENDING,
  AUTHORIZED: RESPONSE_CODES.PENDING,
  RESERVED: RESPONSE_CODES.PENDING,
  FINALIZED: RESPONSE_CODES.OK,
  REPORTED: RESPONSE_CODES.OK,
  REJECTED: RESPONSE_CODES.REJECT,
  FAILED: RESPONSE_CODES.REJECT,
  TIMEDOUT: RESPONSE_CODES.CANCEL,
  CANCELLED: RESPONSE_CODES.CANCEL,
  STALE: RESPONSE_CODES.CANCEL,
}

export interface ErrorDescription {
  message: string
  faults: Fault[]
}

export function errorEnvelope({ message, faults }: ErrorDescription): Envelope {
  return { valid: false, error: { componsiteFault: { faults }, message } }
}

/**
 * The answer about one transaction. With `error` (201 created but rejected) it is
 * valid: false and still carries the transaction, so the merchant learns its id and state.
 */
export function transactionEnvelope(record: TransactionRecord, publicUrl: string, error?: ErrorDescription): Envelope {
  const responseCode = RESPONSE_CODE_OF_STATE[record.state]
  return {
    ...(error ? errorEnvelope(error) : { valid: true }),
    response: {
      responseCode,
      extendedResponseCode: responseCode,
      request: {
        transaction: transactionView(record),
        channel: "WS_REST",
        additionalProperties: record.additionalProperties,
        ecr2Naa: record.ecr2Naa,
      },
      naa2Ecr: naa2Ecr(record),
    },
    nextLink: statusLink(publicUrl, record),
  }
}

export function extendedEnvelope(record: TransactionRecord, publicUrl: string): ExtendedEnvelope {
  return {
    ...transactionEnvelope(record, publicUrl),
    transactionId: record.transactionId,
    timeStamp: record.timeStamp,
    state: record.state,
    accountState: record.accountState,
    receipt: record.receipt,
    payerId: record.consumer.consumerId,
    qrTrigger: record.trigger === "2" ? "1" : "0",
    naa2Ecr: naa2Ecr(record),
  }
}

function transactionView(record: TransactionRecord): Transaction {
  return {
    transactionId: record.transactionId,
    terminalReference: record.terminalReference,
    // Not a member of the contract's Transaction; kept so refunds and reversals show what they act on.
    originalReference: record.originalReference,
    batch: record.batch,
    timeStamp: record.timeStamp,
    amount: record.amount,
    method: record.method,
    accountState: record.accountState,
    cancel: record.state === "CANCELLED",
    message: record.message,
    state: record.state,
    merchant: record.merchant,
    consumer: record.consumer,
    receipt: record.receipt,
    transitions: record.transitions,
    order: record.order,
    trigger: record.trigger,
  }
}

function naa2Ecr(record: TransactionRecord) {
  const { schemeId } = SCHEMES[record.method]
  return {
    schemeId,
    ppref: `${schemeId}-${record.transactionId}`,
    payerId: record.consumer.consumerId,
    additionalInfo: record.additionalInfo,
  }
}
