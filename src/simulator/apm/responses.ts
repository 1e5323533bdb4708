/** SimResponses of the APM API: always the envelope as JSON. */
import type { Envelope } from "../../apm/schemas"
import type { SimResponse } from "../http-types"
import { type ErrorDescription, errorEnvelope } from "./envelope"
import type { Fault } from "./faults"

/** The body is a copy: envelopes share arrays with stored transactions, which change later. */
export function envelopeResponse(status: number, body: Envelope, headers?: Record<string, string>): SimResponse {
  return { status, body: structuredClone(body), ...(headers ? { headers } : {}) }
}

export function failure(status: number, error: ErrorDescription, headers?: Record<string, string>): SimResponse {
  return envelopeResponse(status, errorEnvelope(error), headers)
}

export function badRequest(faults: Fault[]): SimResponse {
  return failure(400, { message: "The request could not be validated", faults })
}
