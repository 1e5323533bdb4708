/**
 * The HTTP transport both clients share, on axios: keep-alive connections, a deadline per attempt,
 * bounded retries, debug logging with secrets redacted, and the translation of "no answer"
 * into GatewayUnavailableError / OutcomeUnknownError. It knows nothing of endpoints or
 * bodies: every HTTP answer, whatever its status, is handed back to the client to map.
 *
 * Retry rules (why each one):
 * - Reads are always safe to repeat.
 * - A write is repeated only when it carries an idempotency key, and with the same key, so
 *   the service executes it at most once. A write without one is never repeated: a capture
 *   executed twice is money taken twice.
 * - Only conditions a second attempt can cure are retried: a broken or refused connection,
 *   a timeout, a 5xx. A 4xx is the same answer every time.
 */
import http from "node:http"
import https from "node:https"
import { performance } from "node:perf_hooks"
import axios, { type AxiosInstance } from "axios"
import { backoffDelayMs, type Sleep, sleep } from "./backoff"
import {
  GatewayUnavailableError,
  type NexiError,
  OutcomeUnknownError,
  SERVICE_LABELS,
  type ServiceName,
} from "./errors"
import { type Logger, silentLogger } from "./logger"
import { classifyNetworkError, type NetworkFailure, timeoutFailure } from "./network-failure"
import { redactForLog, redactText } from "./redact"

/** The knobs a merchant may turn; the same for both clients. */
export interface TransportTuning {
  /** Deadline of one attempt, connection included. Default 15000. */
  timeoutMs?: number
  /** Extra attempts after the first, for requests that may be repeated. Default 2. */
  retries?: number
  /** First backoff ceiling; doubles per retry. Default 100. */
  retryBaseDelayMs?: number
  /** Largest backoff ceiling. Default 2000. */
  retryMaxDelayMs?: number
  /** Upper bound of open connections to the service. Default 16. */
  maxSockets?: number
  /** Receives one debug line per request and per answer, redacted. */
  logger?: Logger
  /** How the backoff waits; tests pass a recorder that does not wait. */
  sleep?: Sleep
}

const TRANSPORT_DEFAULTS = {
  timeoutMs: 15_000,
  retries: 2,
  retryBaseDelayMs: 100,
  retryMaxDelayMs: 2_000,
  maxSockets: 16,
} as const

export interface TransportOptions extends TransportTuning {
  service: ServiceName
  baseUrl: string
  /** Sent on every attempt: credentials, content type. */
  headers: Record<string, string>
  /** Evaluated per attempt, for headers that must be fresh each time (a Correlation-Id). */
  attemptHeaders?: () => Record<string, string>
  /** Reads an answer's JSON text; default JSON.parse. The APM client keeps int64 ids exact with it. */
  parseJson?: (text: string) => unknown
}

export type HttpMethod = "GET" | "POST"

export interface TransportRequest {
  method: HttpMethod
  /** Method and path template, for logs and error messages: "POST /operations/{operationId}/captures". */
  endpoint: string
  /** Below the base URL with ids already encoded, or an absolute URL the client vetted. */
  path: string
  query?: Record<string, string | number | undefined>
  body?: unknown
  /** Sent as the Idempotency-Key header on every attempt; makes a write retryable. */
  idempotencyKey?: string
}

export interface TransportAnswer {
  status: number
  /** Parsed JSON; the raw text when it is not JSON; undefined when empty. */
  body: unknown
}

type AttemptOutcome = ({ kind: "answer" } & TransportAnswer) | { kind: "failure"; failure: NetworkFailure }

/**
 * Answers are small JSON documents; anything far bigger is not the service talking. Requests
 * are smaller still: one that big is refused before it is sent.
 */
const MAX_BODY_BYTES = 10 * 1024 * 1024
/** Keeps one debug line readable when a list answer is long. */
const MAX_LOG_LINE_CHARS = 4_000

/** The provider option that holds each service's address, for errors that send staff to it. */
const OPTION_OF_SERVICE: Record<ServiceName, string> = { gateway: "environment", apm: "apm.environment" }

export class HttpTransport {
  /** The keep-alive agent serving the base URL, whose sockets bound the connections a store opens. */
  readonly agent: http.Agent
  private readonly agents: { http: http.Agent; https: https.Agent }
  private readonly axios: AxiosInstance
  private readonly service: ServiceName
  /** The configured address's host, for the errors that send staff to the option holding it. */
  private readonly host: string
  private readonly headers: Record<string, string>
  private readonly attemptHeaders: () => Record<string, string>
  private readonly timeoutMs: number
  private readonly retries: number
  private readonly backoff: { baseDelayMs: number; maxDelayMs: number }
  private readonly logger: Logger
  private readonly sleep: Sleep
  private readonly parseJson: (text: string) => unknown

  constructor(options: TransportOptions) {
    const maxSockets = options.maxSockets ?? TRANSPORT_DEFAULTS.maxSockets
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets }),
      https: new https.Agent({ keepAlive: true, maxSockets }),
    }
    const baseUrl = new URL(options.baseUrl)
    this.agent = baseUrl.protocol === "https:" ? this.agents.https : this.agents.http
    this.host = baseUrl.host
    this.axios = axios.create({
      // A path is below it; an absolute URL (a link the service returned, vetted by the client) goes as it is.
      baseURL: options.baseUrl,
      httpAgent: this.agents.http,
      httpsAgent: this.agents.https,
      // The connections are this pool's: no proxy from HTTP(S)_PROXY in between.
      proxy: false,
      // The deadline is ours (an AbortController per attempt): axios's own stops timing once
      // the answer's headers are in, and a slow body would run past it.
      timeout: 0,
      // An API that redirects is misconfigured; following would re-send credentials and writes.
      maxRedirects: 0,
      maxContentLength: MAX_BODY_BYTES,
      maxBodyLength: MAX_BODY_BYTES,
      // Raw text in: a body that is not JSON is reported as such, and the APM client parses
      // its int64 ids itself where JSON.parse would round them.
      responseType: "text",
      transformResponse: [(data: unknown) => data],
      // Every status is an answer for the client to map; only "no answer" throws.
      validateStatus: () => true,
    })
    this.service = options.service
    this.headers = options.headers
    this.attemptHeaders = options.attemptHeaders ?? (() => ({}))
    this.timeoutMs = options.timeoutMs ?? TRANSPORT_DEFAULTS.timeoutMs
    this.retries = options.retries ?? TRANSPORT_DEFAULTS.retries
    this.backoff = {
      baseDelayMs: options.retryBaseDelayMs ?? TRANSPORT_DEFAULTS.retryBaseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? TRANSPORT_DEFAULTS.retryMaxDelayMs,
    }
    this.logger = options.logger ?? silentLogger
    this.sleep = options.sleep ?? sleep
    this.parseJson = options.parseJson ?? JSON.parse
  }

  /** Sends the request, retrying as the rules above allow; resolves with the last HTTP answer. */
  async send(request: TransportRequest): Promise<TransportAnswer> {
    const repeatable = request.method === "GET" || request.idempotencyKey !== undefined
    const maxAttempts = repeatable ? this.retries + 1 : 1
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(request, attempt, maxAttempts)
      const cause = retryCause(outcome)
      if (cause !== undefined && attempt < maxAttempts) {
        const delayMs = backoffDelayMs(attempt, this.backoff)
        this.logger.warn(
          `nexi: ${SERVICE_LABELS[this.service]} ${request.endpoint}: ${cause} on attempt ${attempt} of ${maxAttempts}, retrying in ${delayMs} ms`,
        )
        await this.sleep(delayMs)
        continue
      }
      if (outcome.kind === "answer") return { status: outcome.status, body: outcome.body }
      throw this.noAnswerError(request, outcome.failure, attempt)
    }
  }

  /** Closes the kept-alive connections; the transport must not be used afterwards. */
  close(): void {
    this.agents.http.destroy()
    this.agents.https.destroy()
  }

  private async attempt(request: TransportRequest, attempt: number, maxAttempts: number): Promise<AttemptOutcome> {
    const url = withQuery(request.path, request.query)
    const headers: Record<string, string> = { ...this.headers, ...this.attemptHeaders() }
    if (request.idempotencyKey !== undefined) headers["Idempotency-Key"] = request.idempotencyKey
    const label = `${SERVICE_LABELS[this.service]} ${request.method} ${url} (attempt ${attempt}/${maxAttempts})`
    const debugging = this.debugEnabled()
    if (debugging) this.debug(`${label} request headers=${redactForLog(headers)} body=${redactForLog(request.body)}`)

    const controller = new AbortController()
    let timedOut = false
    // Covers connecting, sending and the whole answer; the abort destroys the request's socket.
    const deadline = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, this.timeoutMs)
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    try {
      const response = await this.axios.request<string>({
        method: request.method,
        url,
        headers,
        data: request.body,
        signal: controller.signal,
      })
      const body = parseBody(response.data, this.parseJson)
      if (debugging) this.debug(`${label} answered ${response.status} in ${elapsed()} ms body=${redactForLog(body)}`)
      return { kind: "answer", status: response.status, body }
    } catch (error) {
      // Only the error's code and message are read: axios errors carry the request config, headers included.
      const failure = timedOut
        ? timeoutFailure(this.timeoutMs)
        : classifyNetworkError(error as { code?: unknown; message?: unknown })
      if (debugging) this.debug(`${label} got no answer in ${elapsed()} ms: ${failure.reason}`)
      return { kind: "failure", failure }
    } finally {
      clearTimeout(deadline)
    }
  }

  private noAnswerError(request: TransportRequest, failure: NetworkFailure, attempts: number): NexiError {
    const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`
    const prefix = `${SERVICE_LABELS[this.service]} ${request.endpoint}: no answer (${failure.reason}) after ${tries}`
    if (failure.misconfiguration) return this.unreachableError(prefix, failure.misconfiguration)
    if (!failure.mayHaveExecuted) {
      return new GatewayUnavailableError(this.service, `${prefix}; the request was not sent, try again later`)
    }
    if (request.method === "GET") {
      return new GatewayUnavailableError(this.service, `${prefix}; try again later`)
    }
    const advice =
      request.idempotencyKey === undefined
        ? "read its state before repeating it"
        : "repeat it later with the same idempotency key, or read its state"
    return new OutcomeUnknownError(this.service, `${prefix}; it may have been executed: ${advice}`)
  }

  /**
   * The configured address itself is wrong: no "try again later", which would not help. Said
   * in the log too, where whoever set the option looks, with the host and the option to check.
   */
  private unreachableError(prefix: string, problem: string): GatewayUnavailableError {
    const { host } = this
    const option = OPTION_OF_SERVICE[this.service]
    this.logger.warn(
      `nexi: ${SERVICE_LABELS[this.service]} at ${host} cannot be reached: ${problem}. Check the provider's \`${option}\` option.`,
    )
    return new GatewayUnavailableError(
      this.service,
      `${prefix}; the request was not sent: ${host} cannot be reached (${problem}), check the \`${option}\` option`,
      {
        unreachable: { host, problem, option },
      },
    )
  }

  /**
   * A debug line costs a deep copy, JSON and a card-number scan of both bodies, a large share
   * of what the client adds to a call (docs/benchmark.md), for lines Medusa's logger drops at
   * its default level. Built only when it would write them.
   */
  private debugEnabled(): boolean {
    return this.logger.shouldLog?.("debug") ?? true
  }

  /**
   * Masks before truncating, so a cut never leaves part of a secret readable. The line holds
   * the request URL too, whose query may carry a token.
   */
  private debug(line: string): void {
    const masked = redactText(line)
    this.logger.debug(masked.length > MAX_LOG_LINE_CHARS ? `${masked.slice(0, MAX_LOG_LINE_CHARS)}…` : masked)
  }
}

/** Why another attempt may succeed, or undefined when it would not. */
function retryCause(outcome: AttemptOutcome): string | undefined {
  if (outcome.kind === "answer") return outcome.status >= 500 ? `status ${outcome.status}` : undefined
  return outcome.failure.transient ? outcome.failure.reason : undefined
}

function withQuery(path: string, query: TransportRequest["query"]): string {
  const defined = Object.entries(query ?? {}).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  )
  if (defined.length === 0) return path
  return `${path}?${new URLSearchParams(defined.map(([key, value]) => [key, String(value)]))}`
}

function parseBody(text: string | undefined, parseJson: (text: string) => unknown): unknown {
  if (text === undefined || text === "") return undefined
  try {
    return parseJson(text)
  } catch {
    return text
  }
}
