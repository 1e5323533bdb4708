/**
 * The initialize operations take `application/json;charset=utf-8;version=2.0`. The body
 * is parsed here from the raw text rather than trusted from the server, so a malformed
 * body always gets the same 400 fault whatever the server did with it.
 */

import type { SimRequest } from "../http-types"
import { type Fault, fault } from "./faults"

export type BodyReading = { body: unknown } | { faults: Fault[] }

export function readJsonBody(req: SimRequest): BodyReading {
  const contentTypeFault = checkContentType(req.headers["content-type"])
  if (contentTypeFault) return { faults: [contentTypeFault] }
  if (req.rawBody.trim() === "") return { faults: [fault("The request body is missing", { field: "body" })] }
  try {
    return { body: JSON.parse(req.rawBody) }
  } catch (error) {
    return { faults: [fault(`The request body is not valid JSON: ${(error as Error).message}`, { field: "body" })] }
  }
}

/** Charset and version parameters are optional, but when given they must be the ones the service speaks. */
const EXPECTED_PARAMETERS: ReadonlyMap<string, string> = new Map([
  ["charset", "utf-8"],
  ["version", "2.0"],
])

function checkContentType(header: string | undefined): Fault | undefined {
  const expected = "application/json;charset=utf-8;version=2.0"
  if (!header)
    return fault(`The Content-Type header is missing; send ${expected}`, { header: "Content-Type", expected })
  const [mediaType, ...parameters] = header.split(";").map((part) => part.trim())
  if (mediaType.toLowerCase() !== "application/json") {
    return fault(`Content-Type ${mediaType} is not supported; send ${expected}`, { header: "Content-Type", expected })
  }
  for (const parameter of parameters.filter(Boolean)) {
    const [name, value = ""] = parameter.split("=").map((part) => part.trim().replace(/^"|"$/g, ""))
    const wanted = EXPECTED_PARAMETERS.get(name.toLowerCase())
    if (wanted !== undefined && value.toLowerCase() !== wanted) {
      return fault(`Content-Type parameter ${name}=${value} is not supported; send ${expected}`, {
        header: "Content-Type",
        expected,
      })
    }
  }
  return undefined
}
