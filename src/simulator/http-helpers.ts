/**
 * Answers and body reading shared by the JSON families (gateway and control): every error
 * is `{ errors: [{ code, description }] }`, the shape of the gateway's error records.
 */
import type { z } from "zod"
import type { SimRequest, SimResponse } from "./http-types"

export interface ErrorRecord {
  code: string
  description: string
}

export function jsonAnswer(status: number, body: unknown): SimResponse {
  return { status, body }
}

export function errorAnswer(status: number, code: string, description: string): SimResponse {
  return { status, body: { errors: [{ code, description }] } }
}

export function errorsAnswer(status: number, errors: ErrorRecord[]): SimResponse {
  return { status, body: { errors } }
}

/** Codes the simulator itself uses where the real gateway's code is unknown. */
export const SIM_CODES = {
  invalidRequest: "SIM0400",
  unauthorized: "SIM0401",
  forbidden: "SIM0403",
  notFound: "SIM0404",
  notAllowed: "SIM0409",
  tooLarge: "SIM0413",
  unsupportedMediaType: "SIM0415",
  internal: "SIM0500",
} as const

export type BodyRead = { ok: true; value: unknown } | { ok: false; answer: SimResponse }

/**
 * The JSON body of a request. An empty body reads as undefined; a body with another content
 * type or malformed JSON is refused with a message saying which.
 */
export function readJsonBody(req: SimRequest): BodyRead {
  if (req.rawBody.trim() === "") return { ok: true, value: undefined }
  const contentType = req.headers["content-type"] ?? ""
  if (!isJsonContentType(contentType)) {
    return refuse(`Content-Type must be application/json (got "${contentType || "none"}")`)
  }
  try {
    return { ok: true, value: JSON.parse(req.rawBody) }
  } catch (error) {
    return refuse(`the body is not valid JSON: ${(error as Error).message}`)
  }
}

function refuse(description: string): BodyRead {
  return { ok: false, answer: errorAnswer(400, SIM_CODES.invalidRequest, description) }
}

export function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(";")[0].trim().toLowerCase()
  return mediaType === "application/json" || mediaType.endsWith("+json")
}

/** "order.amount: must be a string of digits"; a missing field reads "is required". */
export function describeIssue(issue: z.core.$ZodIssue, pathPrefix: readonly string[] = []): string {
  const path = [...pathPrefix, ...issue.path.map(String)].join(".") || "body"
  const missing = issue.code === "invalid_type" && issue.message.endsWith("received undefined")
  return `${path}: ${missing ? `is required (${issue.expected})` : issue.message}`
}
