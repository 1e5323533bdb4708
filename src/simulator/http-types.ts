/**
 * The simulator's HTTP server parses a request into a SimRequest and writes back a
 * SimResponse, so each API family (card gateway, alternative payments, control) is a plain
 * function that tests can call and that knows nothing of sockets. Fault injection, request
 * recording and the loopback guard live in the server, around every family alike.
 */

export interface SimRequest {
  method: string
  /** Path below the family's mount point, without the query string: "/orders/hpp". */
  path: string
  query: URLSearchParams
  /** Header names in lower case. */
  headers: Record<string, string | undefined>
  /** The parsed JSON body; undefined when there was none. */
  body: unknown
  /** The body as received, for content-type and malformed-JSON checks. */
  rawBody: string
}

export interface SimResponse {
  status: number
  headers?: Record<string, string>
  /** Sent as JSON unless `html` or `text` is given. */
  body?: unknown
  html?: string
  text?: string
  contentType?: string
}
