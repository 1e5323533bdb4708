/**
 * One simulator per test file over real HTTP (node's fetch), reset before every test, plus
 * small helpers that speak the gateway's protocol the way docs/contract/gateway.md describes it.
 */
import { randomUUID } from "node:crypto"
import { DEFAULTS, type RunningSimulator, type SimulatorOptions, startSimulator } from "../.."
import type { OperationRecord } from "../../gateway/store"

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON whose members each test asserts
export interface Answer<T = any> {
  status: number
  body: T
  headers: Headers
}

export interface GatewayCallOptions {
  body?: unknown
  apiKey?: string | null
  correlationId?: string | null
  idempotencyKey?: string
  headers?: Record<string, string>
}

export class SimulatorHarness {
  sim!: RunningSimulator
  private orderCounter = 0

  async call(
    method: string,
    url: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers }
    let payload: string | undefined
    if (init.body !== undefined) {
      payload = typeof init.body === "string" ? init.body : JSON.stringify(init.body)
      headers["content-type"] ??= "application/json"
    }
    const response = await fetch(url, { method, headers, body: payload, redirect: "manual" })
    const text = await response.text()
    let body: unknown = text
    if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") body = JSON.parse(text)
    return { status: response.status, body, headers: response.headers }
  }

  gateway(method: string, path: string, options: GatewayCallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.apiKey !== null) headers["X-API-KEY"] = options.apiKey ?? DEFAULTS.apiKey
    if (options.correlationId !== null) headers["Correlation-Id"] = options.correlationId ?? randomUUID()
    if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey
    return this.call(method, this.sim.gatewayUrl + path, { body: options.body, headers })
  }

  control(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.call(method, this.sim.controlUrl + path, { body })
  }

  newOrderId(): string {
    this.orderCounter += 1
    return `T${Date.now().toString(36)}${this.orderCounter}`.slice(0, 18)
  }

  async hostedOrder(
    overrides: { order?: Record<string, unknown>; paymentSession?: Record<string, unknown> } = {},
    apiKey?: string,
  ): Promise<{ orderId: string; hostedPage: string; securityToken: string }> {
    const orderId = this.newOrderId()
    const answer = await this.gateway("POST", "/orders/hpp", {
      apiKey,
      body: {
        order: { orderId, amount: "1999", currency: "EUR", description: "Two mugs", ...overrides.order },
        paymentSession: {
          amount: "1999",
          language: "eng",
          resultUrl: "https://shop.example/result",
          cancelUrl: "https://shop.example/cancel",
          ...overrides.paymentSession,
        },
      },
    })
    expect(answer.status).toBe(200)
    return { orderId: (overrides.order?.orderId as string) ?? orderId, ...answer.body }
  }

  /** Pays through the control API (the hosted page's own code path). */
  async payHosted(orderId: string, card: object, extra: Record<string, unknown> = {}): Promise<Answer> {
    return this.control("POST", `/hpp/${orderId}/pay`, { ...card, ...extra })
  }

  /** A MOTO payment; returns its operation. */
  async moto(
    options: { amount?: string; currency?: string; captureType?: string; card?: object } = {},
  ): Promise<OperationRecord> {
    const answer = await this.gateway("POST", "/orders/moto", {
      body: {
        order: { orderId: this.newOrderId(), amount: options.amount ?? "1000", currency: options.currency ?? "EUR" },
        card: options.card ?? { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
        ...(options.captureType ? { captureType: options.captureType } : {}),
      },
    })
    expect(answer.status).toBe(200)
    return answer.body.operation
  }

  postOperation(kind: "captures" | "refunds", operationId: string, amount: string, currency = "EUR"): Promise<Answer> {
    return this.gateway("POST", `/operations/${operationId}/${kind}`, {
      idempotencyKey: randomUUID(),
      body: { amount, currency, description: `test ${kind}` },
    })
  }

  order(orderId: string, apiKey?: string): Promise<Answer> {
    return this.gateway("GET", `/orders/${orderId}`, { apiKey })
  }

  operation(operationId: string): Promise<Answer> {
    return this.gateway("GET", `/operations/${operationId}`)
  }
}

/** Starts a simulator for the file, resets it before each test and closes it after. */
export function setUpSimulator(options: SimulatorOptions = {}): SimulatorHarness {
  const harness = new SimulatorHarness()
  beforeAll(async () => {
    harness.sim = await startSimulator({ port: 0, control: true, ...options })
  })
  beforeEach(async () => {
    const reset = await harness.control("POST", "/reset")
    expect(reset.status).toBe(200)
  })
  afterAll(async () => {
    await harness.sim?.close()
  })
  return harness
}

/** [type, result] pairs of an order's operations, in order: the shape the plugin maps to a status. */
export function operationSteps(orderBody: {
  operations: { operationType: string; operationResult: string }[]
}): string[] {
  return orderBody.operations.map((operation) => `${operation.operationType}/${operation.operationResult}`)
}
