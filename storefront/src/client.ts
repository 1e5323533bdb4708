/**
 * How the kit talks to the Medusa store API: through a client the storefront passes in, never
 * a global. `sdk.client` of @medusajs/js-sdk fits as it is (its `fetch` takes a path, a query
 * object and a JSON body, adds the publishable key and answers the parsed JSON); any WHATWG
 * `fetch` fits through `storeClientFromFetch`.
 */

/** One request to the store API, in the shape of the js-sdk's `client.fetch` arguments. */
export interface StoreRequest {
  method?: "GET" | "POST" | "DELETE"
  query?: Record<string, string>
  /** Sent as JSON. */
  body?: Record<string, unknown>
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** What the kit needs of a client: `sdk.client` of @medusajs/js-sdk, or `storeClientFromFetch(fetch, ...)`. */
export interface NexiStoreClient {
  /** Answers the parsed JSON body; throws on an answer that is not 2xx. */
  fetch<T>(path: string, request?: StoreRequest): Promise<T>
}

/**
 * Per call: the customer's authorization (a server action passes the starter's
 * `await getAuthHeaders()`), and a signal that abandons the request.
 */
export interface RequestOptions {
  headers?: Record<string, string>
  signal?: AbortSignal
}

/** The store API answered with an error status; `message` is Medusa's own (it names the field). */
export class NexiStoreError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = "NexiStoreError"
  }
}

/** The part of WHATWG `fetch` the kit uses: the global fetch, undici's, or a test fake. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>

export interface FetchClientConfig {
  /** The Medusa backend, e.g. https://api.shop.example.com */
  baseUrl: string
  /** Sent as `x-publishable-api-key`, which every /store route requires. */
  publishableKey: string
  /** Sent with every request, e.g. { "accept-language": "it" }; a call's own headers win. */
  headers?: Record<string, string>
}

async function errorMessageOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined
  return typeof body?.message === "string" ? body.message : `${response.status} ${response.statusText}`.trim()
}

/** A client over a plain `fetch`, for storefronts without the js-sdk. */
export function storeClientFromFetch(fetchFunction: FetchFunction, config: FetchClientConfig): NexiStoreClient {
  const baseUrl = config.baseUrl.replace(/\/+$/, "")
  return {
    async fetch<T>(path: string, request: StoreRequest = {}): Promise<T> {
      const query = request.query ? `?${new URLSearchParams(request.query)}` : ""
      const headers: Record<string, string> = {
        accept: "application/json",
        "x-publishable-api-key": config.publishableKey,
        ...config.headers,
        ...request.headers,
      }
      if (request.body) headers["content-type"] = "application/json"
      const response = await fetchFunction(`${baseUrl}${path}${query}`, {
        method: request.method ?? "GET",
        headers,
        body: request.body ? JSON.stringify(request.body) : undefined,
        signal: request.signal,
      })
      if (!response.ok) throw new NexiStoreError(await errorMessageOf(response), response.status)
      return (await response.json()) as T
    },
  }
}

/** The request fields every kit call forwards from its options. */
export function forwarded(options: RequestOptions | undefined): Pick<StoreRequest, "headers" | "signal"> {
  return {
    ...(options?.headers ? { headers: options.headers } : {}),
    ...(options?.signal ? { signal: options.signal } : {}),
  }
}
