/**
 * GatewayClient over HTTP: one method per endpoint of docs/contract/gateway.md, each a route, a
 * schema for the answer, and the shared transport. Headers follow docs/contract/gateway.md:
 * X-API-KEY always, a fresh Correlation-Id per attempt, Idempotency-Key on captures, refunds
 * and merchant-initiated charges, and on MOTO payments and card verifications when the caller
 * gives one (the gateway defines none for cancels, payment links, contracts or Build sessions).
 */
import { randomUUID } from "node:crypto"
import type http from "node:http"
import type { z } from "zod"
import { type ErrorDetail, NotFoundError, SERVICE_LABELS } from "../http/errors"
import { type Logger, silentLogger } from "../http/logger"
import { parseAnswer } from "../http/parse-answer"
import { type Route, route } from "../http/route"
import { errorForStatus } from "../http/status-errors"
import { HttpTransport, type TransportAnswer, type TransportRequest, type TransportTuning } from "../http/transport"
import { type GatewayEnvironment, resolveGatewayBaseUrl } from "./environment"
import type { GatewayClient } from "./gateway-client"
import {
  type BuildRequest,
  type BuildResponse,
  BuildResponseSchema,
  type BuildStateResponse,
  BuildStateResponseSchema,
  type CancelRequest,
  type CardVerificationRequest,
  type CustomerContracts,
  CustomerContractsSchema,
  ErrorBodySchema,
  type HppRequest,
  type HppResponse,
  HppResponseSchema,
  type ListOperationsQuery,
  type ListOrdersQuery,
  type MitRequest,
  type MotoRequest,
  type Operation,
  type OperationList,
  OperationListSchema,
  type OperationResponse,
  OperationResponseSchema,
  OperationSchema,
  type OrderDetails,
  OrderDetailsSchema,
  type OrderList,
  OrderListSchema,
  type PayByLinkRequest,
  type PayByLinkResponse,
  PayByLinkResponseSchema,
  type PaymentMethodList,
  PaymentMethodListSchema,
  type PostOperationRequest,
  type PostOperationResponse,
  PostOperationResponseSchema,
} from "./schemas"
import { warnUnrecognized } from "./tolerant-reader"

export interface GatewayClientOptions extends TransportTuning {
  apiKey: string
  /** "sandbox", "production" or a base URL ending in the version segment (the simulator's gatewayUrl). */
  environment: GatewayEnvironment
}

/** Reads `{ errors: [{ code, description }] }`; any other error body yields no details. */
function gatewayErrorDetails(body: unknown): ErrorDetail[] {
  const parsed = ErrorBodySchema.safeParse(body)
  return parsed.success ? parsed.data.errors.map(({ code, description }) => ({ code, description })) : []
}

export class HttpGatewayClient implements GatewayClient {
  private readonly transport: HttpTransport
  private readonly logger: Logger

  constructor(options: GatewayClientOptions) {
    const { apiKey, environment, ...tuning } = options
    if (!apiKey) throw new TypeError("apiKey: the gateway API key is required")
    this.logger = tuning.logger ?? silentLogger
    this.transport = new HttpTransport({
      ...tuning,
      service: "gateway",
      baseUrl: resolveGatewayBaseUrl(environment),
      headers: { "X-API-KEY": apiKey, "Content-Type": "application/json", Accept: "application/json" },
      // Fresh per attempt, so the gateway's logs tell a retry from the first try.
      attemptHeaders: () => ({ "Correlation-Id": randomUUID() }),
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

  async createHostedOrder(body: HppRequest): Promise<HppResponse> {
    return this.call(HppResponseSchema, { ...route("POST", "/orders/hpp"), body })
  }

  async createMotoPayment(body: MotoRequest, idempotencyKey?: string): Promise<OperationResponse> {
    return this.call(OperationResponseSchema, withKey({ ...route("POST", "/orders/moto"), body }, idempotencyKey))
  }

  async verifyCard(body: CardVerificationRequest, idempotencyKey?: string): Promise<OperationResponse> {
    return this.call(
      OperationResponseSchema,
      withKey({ ...route("POST", "/orders/card_verification"), body }, idempotencyKey),
    )
  }

  async listOrders(query: ListOrdersQuery = {}): Promise<OrderList> {
    return this.call(OrderListSchema, { ...route("GET", "/orders"), query })
  }

  async getOrder(orderId: string): Promise<OrderDetails> {
    return this.call(OrderDetailsSchema, route("GET", "/orders/{orderId}", { orderId }))
  }

  async listOperations(query: ListOperationsQuery = {}): Promise<OperationList> {
    return this.call(OperationListSchema, { ...route("GET", "/operations"), query })
  }

  async getOperation(operationId: string): Promise<Operation> {
    return this.call(OperationSchema, route("GET", "/operations/{operationId}", { operationId }))
  }

  async capture(
    operationId: string,
    body: PostOperationRequest,
    idempotencyKey: string,
  ): Promise<PostOperationResponse> {
    return this.postOperation(
      route("POST", "/operations/{operationId}/captures", { operationId }),
      body,
      idempotencyKey,
    )
  }

  async refund(
    operationId: string,
    body: PostOperationRequest,
    idempotencyKey: string,
  ): Promise<PostOperationResponse> {
    return this.postOperation(route("POST", "/operations/{operationId}/refunds", { operationId }), body, idempotencyKey)
  }

  async cancelCapture(operationId: string, body: CancelRequest = {}): Promise<PostOperationResponse> {
    return this.postOperation(route("POST", "/operations/{operationId}/cancels", { operationId }), body)
  }

  async listPaymentMethods(): Promise<PaymentMethodList> {
    return this.call(PaymentMethodListSchema, route("GET", "/payment_methods"))
  }

  async chargeContract(body: MitRequest, idempotencyKey: string): Promise<OperationResponse> {
    return this.call(OperationResponseSchema, withKey({ ...route("POST", "/orders/mit"), body }, idempotencyKey))
  }

  async createPaymentLink(body: PayByLinkRequest): Promise<PayByLinkResponse> {
    return this.call(PayByLinkResponseSchema, { ...route("POST", "/orders/paybylink"), body })
  }

  async cancelPaymentLink(linkId: string): Promise<void> {
    await this.callForStatus(route("POST", "/paybylink/{linkId}/cancels", { linkId }))
  }

  async createBuildSession(body: BuildRequest): Promise<BuildResponse> {
    return this.call(BuildResponseSchema, { ...route("POST", "/orders/build"), body })
  }

  async finalizeBuildPayment(sessionId: string): Promise<BuildStateResponse> {
    return this.call(BuildStateResponseSchema, { ...route("POST", "/build/finalize_payment"), body: { sessionId } })
  }

  async getBuildState(sessionId: string): Promise<BuildStateResponse> {
    return this.call(BuildStateResponseSchema, { ...route("GET", "/build/state"), query: { sessionId } })
  }

  async deactivateContract(contractId: string): Promise<void> {
    await this.callForStatus(route("POST", "/contracts/{contractId}/deactivation", { contractId }))
  }

  async listCustomerContracts(customerId: string): Promise<CustomerContracts> {
    try {
      return await this.call(CustomerContractsSchema, route("GET", "/contracts/customers/{customerId}", { customerId }))
    } catch (error) {
      // The gateway answers 404 for a customer without contracts: for the caller, an empty list.
      if (error instanceof NotFoundError) return { customerId, contracts: [] }
      throw error
    }
  }

  private async postOperation(target: Route, body: unknown, idempotencyKey?: string): Promise<PostOperationResponse> {
    return this.call(PostOperationResponseSchema, withKey({ ...target, body }, idempotencyKey))
  }

  private async call<S extends z.ZodType>(schema: S, request: TransportRequest): Promise<z.output<S>> {
    const answer = await this.callForStatus(request)
    const parsed = parseAnswer(schema, answer.body, "gateway", request.endpoint, answer.status)
    warnUnrecognized(this.logger, `${SERVICE_LABELS.gateway} ${request.endpoint}`, parsed)
    return parsed
  }

  /** A 2xx answer as it came; any other status as the typed error. Alone, for writes whose answer body no source gives. */
  private async callForStatus(request: TransportRequest): Promise<TransportAnswer> {
    const answer = await this.transport.send(request)
    if (answer.status >= 200 && answer.status < 300) return answer
    throw errorForStatus("gateway", request.endpoint, answer.status, gatewayErrorDetails(answer.body))
  }
}

/** Adds the key, refusing a blank one: the gateway could not recognise the retry of the write. */
function withKey(request: TransportRequest, idempotencyKey: string | undefined): TransportRequest {
  if (idempotencyKey !== undefined && idempotencyKey.trim() === "") {
    throw new TypeError(`${request.endpoint}: idempotencyKey must not be empty`)
  }
  return { ...request, idempotencyKey }
}

export function createGatewayClient(options: GatewayClientOptions): HttpGatewayClient {
  return new HttpGatewayClient(options)
}
