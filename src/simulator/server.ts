/**
 * The HTTP layer: turns node requests into SimRequests for the family mounted at the path's
 * prefix, and their SimResponses back into HTTP. Around every family except control it
 * applies the global latency and the injected faults, and records the request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { RequestFaults } from "./faults"
import { errorAnswer, isJsonContentType, SIM_CODES } from "./http-helpers"
import type { SimRequest, SimResponse } from "./http-types"
import type { RequestLog } from "./request-log"

export type FamilyHandler = (req: SimRequest) => SimResponse | Promise<SimResponse>

export interface Mount {
  /** "/apm": serves "/apm" and everything below it; the family sees the path without it. */
  prefix: string
  handler: FamilyHandler
  /** false for the control API: never faulted, delayed or recorded, so tests can always reach it. */
  instrumented: boolean
}

export interface ServerDeps {
  faults: RequestFaults
  requestLog: RequestLog
  now: () => Date
  latencyMs: () => number
  logger?: (line: string) => void
}

export const MAX_BODY_BYTES = 1024 * 1024
/** Beyond this the connection is cut instead of reading on to answer 413 politely. */
const HARD_BODY_LIMIT_BYTES = 16 * MAX_BODY_BYTES

/** What a request turned into: an answer to write, or none (hang, reset). */
type Delivery = { kind: "answer"; response: SimResponse } | { kind: "hang" } | { kind: "reset" }

export class SimServer {
  private readonly server: Server
  private mounts: Mount[] = []

  constructor(private readonly deps: ServerDeps) {
    this.server = createServer({ keepAlive: true, requestTimeout: 30_000, headersTimeout: 15_000 }, (req, res) => {
      void this.serve(req, res)
    })
    this.server.keepAliveTimeout = 5_000
  }

  mount(mounts: Mount[]): void {
    // Longest prefix first, so "/apm" never shadows a longer sibling.
    this.mounts = [...mounts].sort((a, b) => b.prefix.length - a.prefix.length)
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject)
      this.server.listen(port, host, () => {
        this.server.off("error", reject)
        resolve(this.server.address() as AddressInfo)
      })
    })
  }

  /** Stops listening and closes every socket, idle keep-alive and hanging ones included. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now()
    const url = new URL(req.url ?? "/", "http://simulator.invalid")
    const method = (req.method ?? "GET").toUpperCase()
    const path = url.pathname
    const mount = this.mounts.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
    const body = await readBody(req)
    if (body === "cut") {
      req.socket.destroy()
      return
    }
    let delivery: Delivery
    let faultType: string | undefined
    if (body === "too-large") {
      delivery = answer(errorAnswer(413, SIM_CODES.tooLarge, `request body larger than ${MAX_BODY_BYTES} bytes`))
    } else if (!mount) {
      delivery = answer(errorAnswer(404, SIM_CODES.notFound, `no endpoint at ${path}`))
    } else {
      const simRequest = toSimRequest(req, method, path.slice(mount.prefix.length) || "/", url.searchParams, body)
      if (mount.instrumented) {
        const fault = this.deps.faults.take(method, path)
        faultType = fault?.action.type
        delivery = await this.runInstrumented(mount, simRequest, fault)
      } else {
        delivery = answer(await safely(mount.handler, simRequest))
      }
    }
    const status = delivery.kind === "answer" ? delivery.response.status : 0
    if (!mount || mount.instrumented) {
      this.deps.requestLog.record({
        time: this.deps.now().toISOString(),
        method,
        path,
        status,
        ...optionalHeader("correlationId", req.headers["correlation-id"]),
        ...optionalHeader("idempotencyKey", req.headers["idempotency-key"]),
        ...(faultType ? { fault: faultType } : {}),
      })
    }
    this.deps.logger?.(`${method} ${path} -> ${status || delivery.kind} (${Date.now() - started} ms)`)
    if (delivery.kind === "answer") write(res, delivery.response)
    else if (delivery.kind === "reset") req.socket.destroy()
    // "hang": nothing is written; the socket stays open until the client or close() ends it.
  }

  private async runInstrumented(
    mount: Mount,
    req: SimRequest,
    fault: ReturnType<RequestFaults["take"]>,
  ): Promise<Delivery> {
    await sleep(this.deps.latencyMs())
    if (fault?.phase === "before") {
      const early = await applyFault(fault.action)
      if (early) return early
    }
    const response = await safely(mount.handler, req)
    if (fault?.phase === "after") return (await applyFault(fault.action)) ?? answer(response)
    return answer(response)
  }
}

/** The delivery a fault imposes, or undefined when the request goes on (latency). */
async function applyFault(
  action: NonNullable<ReturnType<RequestFaults["take"]>>["action"],
): Promise<Delivery | undefined> {
  switch (action.type) {
    case "status":
      return answer({
        status: action.status,
        body: action.body ?? {
          errors: [{ code: SIM_CODES.internal, description: `injected fault: status ${action.status}` }],
        },
      })
    case "hang":
      return { kind: "hang" }
    case "reset":
      return { kind: "reset" }
    case "latency":
      await sleep(action.ms)
      return undefined
  }
}

function answer(response: SimResponse): Delivery {
  return { kind: "answer", response }
}

async function safely(handler: FamilyHandler, req: SimRequest): Promise<SimResponse> {
  try {
    return await handler(req)
  } catch (error) {
    return errorAnswer(500, SIM_CODES.internal, `simulator error: ${(error as Error).message ?? String(error)}`)
  }
}

function readBody(req: IncomingMessage): Promise<string | "too-large" | "cut"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
      else if (size > HARD_BODY_LIMIT_BYTES) resolve("cut")
    })
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? "too-large" : Buffer.concat(chunks).toString("utf8")))
    req.on("error", () => resolve("cut"))
  })
}

function toSimRequest(
  req: IncomingMessage,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
): SimRequest {
  const headers: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(", ") : value
  return { method, path, query, headers, rawBody, body: parseBody(headers["content-type"] ?? "", rawBody) }
}

/** JSON and form bodies arrive parsed; a body that does not parse arrives as undefined (rawBody keeps it). */
function parseBody(contentType: string, rawBody: string): unknown {
  if (rawBody === "") return undefined
  if (isJsonContentType(contentType)) {
    try {
      return JSON.parse(rawBody)
    } catch {
      return undefined
    }
  }
  if (contentType.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(rawBody))
  }
  return undefined
}

function write(res: ServerResponse, response: SimResponse): void {
  const headers: Record<string, string> = { ...response.headers }
  let payload = ""
  if (response.html !== undefined) {
    headers["content-type"] = response.contentType ?? "text/html; charset=utf-8"
    payload = response.html
  } else if (response.text !== undefined) {
    headers["content-type"] = response.contentType ?? "text/plain; charset=utf-8"
    payload = response.text
  } else if (response.body !== undefined) {
    headers["content-type"] = response.contentType ?? "application/json"
    payload = JSON.stringify(response.body)
  }
  headers["content-length"] = String(Buffer.byteLength(payload))
  res.writeHead(response.status, headers)
  res.end(payload)
}

function optionalHeader(name: string, value: string | string[] | undefined): Record<string, string> {
  return typeof value === "string" && value !== "" ? { [name]: value } : {}
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}
