/**
 * The kit's own boundary faked: a `fetch` that records every request and answers from a list,
 * in order, so a test states both the exact requests and the answers the kit got.
 */
import { type FetchFunction, type NexiStoreClient, storeClientFromFetch } from "../client.js"

export const BACKEND = "https://api.shop.test"
export const PUBLISHABLE_KEY = "pk_test_storefront"

export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: unknown
}

export interface Answer {
  status?: number
  body: unknown
}

export function fakeFetch(answers: Answer[]): {
  fetch: FetchFunction
  client: NexiStoreClient
  requests: RecordedRequest[]
} {
  const queue = [...answers]
  const requests: RecordedRequest[] = []
  const fetch: FetchFunction = async (url, init) => {
    init.signal?.throwIfAborted()
    requests.push({
      method: init.method ?? "GET",
      url,
      headers: init.headers as Record<string, string>,
      ...(typeof init.body === "string" ? { body: JSON.parse(init.body) } : {}),
    })
    const answer = queue.shift()
    if (!answer) throw new Error(`fake fetch: no answer left for ${init.method} ${url}`)
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { "content-type": "application/json" },
    })
  }
  return { fetch, requests, client: storeClientFromFetch(fetch, { baseUrl: BACKEND, publishableKey: PUBLISHABLE_KEY }) }
}

/** The method and URL of each request, the part most tests assert. */
export function calls(requests: RecordedRequest[]): string[] {
  return requests.map((request) => `${request.method} ${request.url}`)
}
