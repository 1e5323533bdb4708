/**
 * The shared transport against a tiny server we script per test (see support/tiny-server.ts
 * for why this is not the simulator). Backoff waits are recorded, not slept.
 */
import { inspect } from "node:util"
import { GatewayUnavailableError, OutcomeUnknownError } from "../errors"
import { HttpTransport, type TransportOptions, type TransportRequest } from "../transport"
import { capturingLogger, failure } from "./support/expectations"
import { hang, json, reset, startTinyServer, type TinyServer } from "./support/tiny-server"

const API_KEY = "transport-test-secret-key"

let server: TinyServer
const transports: HttpTransport[] = []
let sleeps: number[]

function transport(options: Partial<TransportOptions> = {}): HttpTransport {
  let counter = 0
  const created = new HttpTransport({
    service: "gateway",
    baseUrl: `${server.url}/api/v1`,
    headers: { "X-API-KEY": API_KEY, "Content-Type": "application/json" },
    attemptHeaders: () => ({ "Correlation-Id": `corr-${++counter}` }),
    // Generous: an answer the test expects must not time out on a loaded machine (jest's workers
    // share two cores). Tests of a timeout set their own.
    timeoutMs: 5_000,
    retryBaseDelayMs: 100,
    retryMaxDelayMs: 2000,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...options,
  })
  transports.push(created)
  return created
}

const getOrder: TransportRequest = { method: "GET", endpoint: "GET /orders/{orderId}", path: "/orders/A1" }
const createHpp: TransportRequest = {
  method: "POST",
  endpoint: "POST /orders/hpp",
  path: "/orders/hpp",
  body: { a: 1 },
}
const capture: TransportRequest = {
  method: "POST",
  endpoint: "POST /operations/{operationId}/captures",
  path: "/operations/OP1/captures",
  body: { amount: "100", currency: "EUR" },
  idempotencyKey: "key-1",
}

beforeAll(async () => {
  server = await startTinyServer()
})

beforeEach(() => {
  server.reset()
  sleeps = []
})

afterEach(() => {
  for (const created of transports.splice(0)) created.close()
})

afterAll(async () => {
  await server.close()
})

describe("requests", () => {
  it("sends the base headers, a fresh per-attempt header, the idempotency key, the query and a JSON body", async () => {
    server.script(json(200, { ok: true }))
    const answer = await transport().send({
      ...capture,
      query: { fromTime: "2024-01-01T00:00:00.000Z", skipped: undefined },
    })
    expect(answer).toEqual({ status: 200, body: { ok: true } })
    const [request] = server.requests
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/api/v1/operations/OP1/captures?fromTime=2024-01-01T00%3A00%3A00.000Z")
    expect(request.headers["x-api-key"]).toBe(API_KEY)
    expect(request.headers["content-type"]).toBe("application/json")
    expect(request.headers["correlation-id"]).toBe("corr-1")
    expect(request.headers["idempotency-key"]).toBe("key-1")
    expect(JSON.parse(request.body)).toEqual({ amount: "100", currency: "EUR" })
  })

  it("hands back every status as an answer, a body that is not JSON as text and an empty one as undefined", async () => {
    server.script(
      json(404, { errors: [] }),
      (_request, response) => response.end("<html>oops</html>"),
      (_r, response) => {
        response.writeHead(204)
        response.end()
      },
    )
    const client = transport()
    expect(await client.send(getOrder)).toEqual({ status: 404, body: { errors: [] } })
    expect(await client.send(getOrder)).toEqual({ status: 200, body: "<html>oops</html>" })
    expect(await client.send(getOrder)).toEqual({ status: 204, body: undefined })
  })

  it("hands the answer's raw text to the client's parser, so an int64 id above 2^53 keeps its digits", async () => {
    const text = '{"transactionId":9007199254740993}'
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(text)
    })
    const parsed: string[] = []
    const parseJson = (raw: string) => {
      parsed.push(raw)
      return { transactionId: raw.slice(raw.indexOf(":") + 1, -1) }
    }
    expect(await transport({ parseJson }).send(getOrder)).toEqual({
      status: 200,
      body: { transactionId: "9007199254740993" },
    })
    expect(parsed).toEqual([text])
  })

  it("does not follow redirects", async () => {
    server.script((_request, response) => {
      response.writeHead(302, { location: "/elsewhere" })
      response.end()
    })
    expect((await transport().send(getOrder)).status).toBe(302)
    expect(server.requests).toHaveLength(1)
  })
})

describe("retries", () => {
  it("retries a read on 5xx with backoff and returns the later answer", async () => {
    server.script(json(503, {}), json(500, {}), json(200, { found: true }))
    const answer = await transport({ sleep: async (ms) => void sleeps.push(ms), retries: 2 }).send(getOrder)
    expect(answer).toEqual({ status: 200, body: { found: true } })
    expect(server.requests).toHaveLength(3)
    expect(sleeps).toHaveLength(2)
    expect(sleeps[0]).toBeGreaterThanOrEqual(0)
    expect(sleeps[0]).toBeLessThan(100)
    expect(sleeps[1]).toBeLessThan(200)
  })

  it("gives up after the configured retries and hands back the last 5xx", async () => {
    server.script(json(502, { errors: [{ code: "X", description: "down" }] }))
    const answer = await transport({ retries: 3 }).send(getOrder)
    expect(answer.status).toBe(502)
    expect(server.requests).toHaveLength(4)
  })

  it("never retries a 4xx", async () => {
    server.script(json(400, { errors: [] }), json(200, {}))
    expect((await transport().send(capture)).status).toBe(400)
    expect(server.requests).toHaveLength(1)
    expect(sleeps).toEqual([])
  })

  it("retries an idempotent write after a reset with the same key and a fresh correlation id", async () => {
    server.script(reset, json(200, { operationId: "OP2" }))
    const answer = await transport().send(capture)
    expect(answer.body).toEqual({ operationId: "OP2" })
    expect(server.requests.map((request) => request.headers["idempotency-key"])).toEqual(["key-1", "key-1"])
    expect(server.requests.map((request) => request.headers["correlation-id"])).toEqual(["corr-1", "corr-2"])
  })

  it("retries an idempotent write after a timeout", async () => {
    server.script(hang, json(200, { operationId: "OP2" }))
    expect((await transport({ timeoutMs: 200 }).send(capture)).status).toBe(200)
    expect(server.requests).toHaveLength(2)
  })

  it("does not retry a write without an idempotency key, even on 5xx", async () => {
    server.script(json(503, {}), json(200, {}))
    expect((await transport().send(createHpp)).status).toBe(503)
    expect(server.requests).toHaveLength(1)
  })
})

describe("no answer", () => {
  it("a write without a key that times out is OutcomeUnknownError after one attempt", async () => {
    server.script(hang)
    const error = await failure(transport({ timeoutMs: 200 }).send(createHpp))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toMatch(
      /^Nexi gateway POST \/orders\/hpp: no answer \(timeout after 200 ms\) after 1 attempt; it may have been executed/,
    )
    expect(server.requests).toHaveLength(1)
  })

  it("a write without a key whose connection is reset is OutcomeUnknownError after one attempt", async () => {
    server.script(reset)
    const error = await failure(transport().send(createHpp))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toMatch(/no answer \(ECONNRESET\)/)
    expect(server.requests).toHaveLength(1)
  })

  it("an idempotent write that never gets an answer is OutcomeUnknownError after all attempts", async () => {
    server.script(reset)
    const error = await failure(transport({ retries: 2 }).send(capture))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toMatch(/after 3 attempts; .*same idempotency key/)
    expect(server.requests).toHaveLength(3)
  })

  it("a read that never gets an answer is GatewayUnavailableError after all attempts", async () => {
    server.script(hang)
    const error = await failure(transport({ timeoutMs: 100, retries: 1 }).send(getOrder))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.message).toBe(
      "Nexi gateway GET /orders/{orderId}: no answer (timeout after 100 ms) after 2 attempts; try again later",
    )
    expect(server.requests).toHaveLength(2)
  })

  it("a refused connection is GatewayUnavailableError, even for a write without a key", async () => {
    const closed = await startTinyServer()
    const baseUrl = closed.url
    await closed.close()
    const error = await failure(transport({ baseUrl }).send(createHpp))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.message).toMatch(/no answer \(ECONNREFUSED\) after 1 attempt; the request was not sent/)
  })

  it("a host name that does not resolve is a configuration problem: said with the host and the option, not retried", async () => {
    const { lines, logger } = capturingLogger()
    const error = (await failure(
      transport({ baseUrl: "http://nexi-gateway.invalid/api/v1", logger }).send(getOrder),
    )) as GatewayUnavailableError
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.unreachable).toEqual({
      host: "nexi-gateway.invalid",
      problem: "the host name does not resolve",
      option: "environment",
    })
    expect(error.message).toMatch(
      /nexi-gateway\.invalid cannot be reached \(the host name does not resolve\), check the `environment` option$/,
    )
    expect(error.message).not.toMatch(/try again/)
    expect(sleeps).toEqual([])
    expect(lines.filter((line) => !line.startsWith("debug"))).toEqual([
      "warn nexi: Nexi gateway at nexi-gateway.invalid cannot be reached: the host name does not resolve. Check the provider's `environment` option.",
    ])
  })

  it("https spoken to a plain-http port is a configuration problem, and the request was not sent", async () => {
    const error = (await failure(
      transport({ baseUrl: server.url.replace("http:", "https:") }).send(createHpp),
    )) as GatewayUnavailableError
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.unreachable?.problem).toMatch(/an https URL pointing at a plain-http port/)
    expect(server.requests).toHaveLength(0)
  })

  it("names the mobile service's own option when its address is wrong", async () => {
    const error = (await failure(
      transport({ service: "apm", baseUrl: "http://apm.invalid/apm" }).send(getOrder),
    )) as GatewayUnavailableError
    expect(error.unreachable?.option).toBe("apm.environment")
  })

  it("builds its own error: no request options, headers or cause to leak", async () => {
    server.script(reset)
    const error = await failure(transport().send(createHpp))
    expect(error.cause).toBeUndefined()
    expect(inspect(error, { depth: 10 })).not.toContain(API_KEY)
    expect(JSON.stringify(error)).not.toContain(API_KEY)
  })
})

describe("broken answers", () => {
  it("cuts off an answer above 10 MiB: not the service talking, and not retried", async () => {
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(Buffer.alloc(11 * 1024 * 1024, 0x20))
    })
    // The cap, not the deadline, is under test.
    const error = await failure(transport().send(getOrder))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.message).toMatch(/no answer \(ERR_ANSWER_TOO_LARGE\) after 1 attempt/)
  })

  it("refuses a request body above 10 MiB before sending it: not sent, so never an unknown outcome", async () => {
    const error = await failure(transport().send({ ...createHpp, body: { note: "x".repeat(11 * 1024 * 1024) } }))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.message).toMatch(/after 1 attempt; the request was not sent/)
    expect(server.requests).toHaveLength(0)
  })

  it("treats an answer whose connection closes before its end as a broken connection, never a short answer", async () => {
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" })
      response.write('{"partial":')
      setTimeout(() => response.socket?.destroy(), 20)
    })
    const error = await failure(transport({ retries: 0 }).send(capture))
    expect(error).toBeInstanceOf(OutcomeUnknownError)
    expect(error.message).toMatch(/no answer \((ECONNRESET|socket hang up)\)/)
  })
})

describe("connections", () => {
  it("keeps one connection alive across sequential calls", async () => {
    const client = transport()
    for (let call = 0; call < 5; call++) await client.send(getOrder)
    expect(server.requests).toHaveLength(5)
    expect(server.connections).toBe(1)
  })

  it("opens at most maxSockets connections under concurrent load", async () => {
    server.script((_request, response) => {
      setTimeout(() => json(200, {})(_request, response, response.socket!), 30)
    })
    const client = transport({ maxSockets: 2 })
    await Promise.all(Array.from({ length: 8 }, () => client.send(getOrder)))
    expect(server.requests).toHaveLength(8)
    expect(server.connections).toBe(2)
    expect(client.agent.maxSockets).toBe(2)
  })
})

describe("logging", () => {
  it("logs each request and answer at debug level with method, path, attempt, status, duration and redacted bodies", async () => {
    const { lines, logger } = capturingLogger()
    server.script(json(503, {}), json(200, { securityToken: "tok-secret", note: "card 4999340261977289" }))
    await transport({ logger }).send({ ...getOrder, body: undefined })
    const text = lines.join("\n")
    expect(lines.filter((line) => line.startsWith("debug "))).toHaveLength(4)
    expect(text).toMatch(/debug Nexi gateway GET \/orders\/A1 \(attempt 1\/3\) request headers=/)
    expect(text).toMatch(/debug Nexi gateway GET \/orders\/A1 \(attempt 2\/3\) answered 200 in \d+ ms body=/)
    expect(text).toMatch(
      /warn nexi: Nexi gateway GET \/orders\/\{orderId\}: status 503 on attempt 1 of 3, retrying in \d+ ms/,
    )
    expect(text).toContain("corr-1")
    expect(text).toContain("[PAN ****7289]")
    for (const secret of [API_KEY, "tok-secret", "4999340261977289"]) expect(text).not.toContain(secret)
  })

  it("builds no debug line for a logger that drops debug (Medusa's at its default level), and still warns", async () => {
    const { lines, logger } = capturingLogger()
    const asked: string[] = []
    const shouldLog = (level: string) => {
      asked.push(level)
      return level !== "debug"
    }
    server.script(json(503, {}), json(200, {}))
    await transport({ logger: { ...logger, shouldLog } }).send(getOrder)
    expect(asked).toEqual(["debug", "debug"])
    expect(lines.filter((line) => line.startsWith("debug "))).toEqual([])
    expect(lines.filter((line) => line.startsWith("warn "))).toHaveLength(1)
  })
})
