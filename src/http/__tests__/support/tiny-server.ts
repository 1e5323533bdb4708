/**
 * A throwaway HTTP server for transport tests. The transport's behaviour on resets, hangs
 * and 5xx is about sockets, not about the gateway, so these tests use a server we own and
 * script per test instead of the simulator (a boundary we own, per CONTRIBUTING.md).
 */
import http from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export type Handler = (
  request: RecordedRequest,
  response: http.ServerResponse,
  socket: import("node:net").Socket,
) => void

export interface TinyServer {
  url: string
  requests: RecordedRequest[]
  /** TCP connections accepted since the last reset. */
  connections: number
  /** Handlers are used in order, the last one for every further request. */
  script(...handlers: Handler[]): void
  reset(): void
  close(): Promise<void>
}

export const json =
  (status: number, body: unknown): Handler =>
  (_request, response) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }

/** Never answers; the client's deadline has to end it. */
export const hang: Handler = () => {}

/** Drops the connection without an answer ("socket hang up" / ECONNRESET at the client). */
export const reset: Handler = (_request, _response, socket) => {
  socket.destroy()
}

export async function startTinyServer(): Promise<TinyServer> {
  let handlers: Handler[] = [json(200, {})]
  const state = { requests: [] as RecordedRequest[], connections: 0 }
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
    incoming.on("end", () => {
      const recorded = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      }
      const handler = handlers[Math.min(state.requests.length, handlers.length - 1)]
      state.requests.push(recorded)
      handler(recorded, response, incoming.socket)
    })
  })
  server.on("connection", () => {
    state.connections += 1
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests
    },
    get connections() {
      return state.connections
    },
    script(...next) {
      handlers = next
      state.requests = []
    },
    reset() {
      handlers = [json(200, {})]
      state.requests = []
      state.connections = 0
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
