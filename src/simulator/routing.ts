/** Path patterns shared by the JSON families: "/operations/:id/captures" against a request path. */
import { errorAnswer, SIM_CODES } from "./http-helpers"
import type { SimResponse } from "./http-types"

export interface PathPattern {
  segments: string[]
}

export function pathPattern(path: string): PathPattern {
  return { segments: path.split("/").filter(Boolean) }
}

/** The decoded path parameters in order, or undefined when the path does not match. */
export function matchPath(pattern: PathPattern, path: string): string[] | undefined {
  const actual = path.split("/").filter(Boolean)
  if (pattern.segments.length !== actual.length) return undefined
  const params: string[] = []
  for (const [index, part] of pattern.segments.entries()) {
    if (part.startsWith(":")) params.push(safeDecode(actual[index]))
    else if (part !== actual[index]) return undefined
  }
  return params
}

/** A malformed escape stays as it came rather than failing the request. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

export interface Routed {
  method: string
  pattern: PathPattern
}

export type RouteLookup<R> =
  | { found: true; route: R; params: string[] }
  /** 404: no route has this path; 405: some do, with other methods (listed in allowed). */
  | { found: false; status: 404 | 405; allowed: string[] }

export function findRoute<R extends Routed>(routes: readonly R[], method: string, path: string): RouteLookup<R> {
  const matches = routes
    .map((route) => ({ route, params: matchPath(route.pattern, path) }))
    .filter((match): match is { route: R; params: string[] } => match.params !== undefined)
  const found = matches.find(({ route }) => route.method === method)
  if (found) return { found: true, ...found }
  return { found: false, status: matches.length === 0 ? 404 : 405, allowed: matches.map(({ route }) => route.method) }
}

/** The 404 or 405 answer for a failed lookup. */
export function routeNotFound(
  lookup: { status: 404 | 405; allowed: string[] },
  req: { method: string; path: string },
): SimResponse {
  if (lookup.status === 404) return errorAnswer(404, SIM_CODES.notFound, `no endpoint at ${req.path}`)
  return {
    ...errorAnswer(
      405,
      SIM_CODES.invalidRequest,
      `${req.method} is not allowed on ${req.path} (allowed: ${lookup.allowed.join(", ")})`,
    ),
    headers: { allow: lookup.allowed.join(", ") },
  }
}
