/**
 * ApmClient over HTTP (docs/contract/apm.md), on the transport the card gateway client uses.
 *
 * Choices where the contract is silent, each the safe one:
 * - Authorization (Bearer base64(consumerKey:consumerSecret)) goes on every call, not only
 *   on initialize: a service that does not need it ignores it; one that does would 401.
 * - The idempotency key travels in the Idempotency-Key header, as on the card gateway.
 * - The status operation is `GET /ms/aapay/v2/transaction/{transactionId}`, unless the
 *   initialize answer's nextLink.uri names another address: the service telling us where
 *   the next operation lives beats our guess. A nextLink.uri on another origin is ignored,
 *   so the credentials never go to a host the merchant did not configure.
 * - 200 and 202 are both accepted as success on every operation; an envelope with
 *   valid=false is a rejection whatever the status.
 */
import type http from "node:http"
import type { z } from "zod"
import { warnUnrecognized } from "../gateway/tolerant-reader"
import { parseBaseUrl } from "../http/base-url"
import { type ErrorDetail, NotFoundError, SERVICE_LABELS } from "../http/errors"
import { type Logger, silentLogger } from "../http/logger"
import { parseAnswer } from "../http/parse-answer"
import { route } from "../http/route"
import { describeDetails, errorForStatus } from "../http/status-errors"
import { HttpTransport, type TransportRequest, type TransportTuning } from "../http/transport"
import type { ApmClient, TransactionRead } from "./apm-client"
import { TransactionRejectedError } from "./errors"
import { parseApmJson } from "./int64-json"
import {
  type Envelope,
  EnvelopeSchema,
  type ExtendedEnvelope,
  ExtendedEnvelopeSchema,
  faultsOf,
  type InitializeRequest,
  type NextLink,
  type TransactionType,
} from "./schemas"

const APM_CONTENT_TYPE = "application/json;charset=utf-8;version=2.0"

export interface ApmClientOptions extends TransportTuning {
  consumerKey: string
  consumerSecret: string
  /** Base URL of the service (the simulator's apmUrl); there is no public default to fall back on. */
  environment: string
}

const SUCCESS_STATUSES = new Set([200, 202])
const CREATED_BUT_REJECTED = 201

/** The scheme's own words: fault texts with their parameters, the error message, the provider's info. */
export function envelopeDetails(body: unknown): ErrorDetail[] {
  const parsed = EnvelopeSchema.safeParse(body)
  if (!parsed.success) return []
  const { error, response } = parsed.data
  const details: ErrorDetail[] = faultsOf(error).map((fault) => ({
    code: fault.explanationText ?? "fault",
    description: Object.entries(fault.params ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join(", "),
  }))
  if (error?.message) details.push({ code: error.message, description: "" })
  const providerInfo = response?.naa2Ecr?.additionalInfo
  if (providerInfo) details.push({ code: providerInfo, description: "" })
  return details
}

export class HttpApmClient implements ApmClient {
  private readonly transport: HttpTransport
  private readonly baseUrl: URL
  private readonly logger: Logger

  constructor(options: ApmClientOptions) {
    const { consumerKey, consumerSecret, environment, ...tuning } = options
    if (!consumerKey || !consumerSecret) {
      throw new TypeError("consumerKey, consumerSecret: the alternative-payment credentials are required")
    }
    if (!environment) throw new TypeError("environment: the alternative-payment service's base URL is required")
    const baseUrl = parseBaseUrl(environment, "environment")
    this.baseUrl = new URL(`${baseUrl}/`)
    this.logger = tuning.logger ?? silentLogger
    const credentials = Buffer.from(`${consumerKey}:${consumerSecret}`).toString("base64")
    this.transport = new HttpTransport({
      ...tuning,
      service: "apm",
      baseUrl,
      parseJson: parseApmJson,
      headers: { Authorization: `Bearer ${credentials}`, "Content-Type": APM_CONTENT_TYPE, Accept: "application/json" },
    })
  }

  /** The keep-alive agent in use, whose sockets bound the connections a store opens. */
  get agent(): http.Agent {
    return this.transport.agent
  }

  /** Closes kept-alive connections, for a clean shutdown. */
  close(): void {
    this.transport.close()
  }

  async initialize(type: TransactionType, body: InitializeRequest): Promise<Envelope> {
    const target = route("POST", "/ms/aapay/v2/transaction/{type}/initialize", { type })
    return this.call(EnvelopeSchema, { ...target, body })
  }

  async initializeWithIdempotency(
    type: TransactionType,
    body: InitializeRequest,
    idempotencyKey: string,
  ): Promise<Envelope> {
    const target = route("POST", "/ms/aapay/v2/transaction/{type}/initializeWithIdempotency", { type })
    if (idempotencyKey.trim() === "") throw new TypeError(`${target.endpoint}: idempotencyKey must not be empty`)
    return this.call(EnvelopeSchema, { ...target, body, idempotencyKey })
  }

  async getTransaction(
    transactionId: number | string,
    nextLink?: NextLink,
    read: TransactionRead = {},
  ): Promise<ExtendedEnvelope> {
    const target = route("GET", "/ms/aapay/v2/transaction/{transactionId}", { transactionId })
    const linked = this.sameOriginUri(nextLink?.uri)
    const request = linked === undefined ? target : { ...target, path: linked }
    try {
      return await this.call(ExtendedEnvelopeSchema, request)
    } catch (error) {
      if (error instanceof NotFoundError && !read.notFoundExpected) this.warnNotFound(request.path)
      throw error
    }
  }

  /**
   * A 404 on a transaction the plugin itself opened is far more often a misconfiguration than a
   * vanished transaction, so it is said where a merchant looks. The URL carries only the base
   * URL and the id; the credentials travel in a header and are never part of it.
   */
  private warnNotFound(path: string): void {
    // As the transport sends it: a path goes below the base URL, whose own path (".../apm") it keeps.
    const url = new URL(path.replace(/^\/+/, ""), this.baseUrl)
    url.search = ""
    this.logger.warn(
      `nexi: ${SERVICE_LABELS.apm}: GET ${url.href} answered 404 (transaction not found). Check that apm.environment is the service's base URL and that the consumer key and secret belong to the merchant (apm.merchantId) that opened the transaction.`,
    )
  }

  /** nextLink.uri resolved against the base URL, if it stays on the configured origin. */
  private sameOriginUri(uri: string | undefined): string | undefined {
    if (!uri) return undefined
    try {
      const resolved = new URL(uri, this.baseUrl)
      return resolved.origin === this.baseUrl.origin ? resolved.href : undefined
    } catch {
      return undefined
    }
  }

  private async call<T extends Envelope>(schema: z.ZodType<T>, request: TransportRequest): Promise<T> {
    const { status, body } = await this.transport.send(request)
    if (SUCCESS_STATUSES.has(status)) {
      const envelope = parseAnswer(schema, body, "apm", request.endpoint, status)
      warnUnrecognized(this.logger, `${SERVICE_LABELS.apm} ${request.endpoint}`, envelope)
      if (envelope.valid) return envelope
      throw rejection(request.endpoint, status, envelope, "envelope not valid")
    }
    if (status === CREATED_BUT_REJECTED) {
      // A 201 is a decline whatever its body says; a body we cannot read still is one.
      const parsed = EnvelopeSchema.safeParse(body)
      const envelope = parsed.success ? parsed.data : { valid: false }
      throw rejection(request.endpoint, status, envelope, "transaction created but rejected")
    }
    throw errorForStatus("apm", request.endpoint, status, envelopeDetails(body))
  }
}

function rejection(endpoint: string, status: number, envelope: Envelope, what: string): TransactionRejectedError {
  const details = envelopeDetails(envelope)
  const reasons = details.length > 0 ? `: ${describeDetails(details)}` : ""
  return new TransactionRejectedError(
    `${SERVICE_LABELS.apm} ${endpoint} answered ${status} (${what})${reasons}`,
    envelope,
    {
      status,
      details,
    },
  )
}

export function createApmClient(options: ApmClientOptions): HttpApmClient {
  return new HttpApmClient(options)
}
