/**
 * Shared set-up of the APM conformance suite: the suite drives ApmSimulator.handle()
 * directly with SimRequest objects, the boundary the simulator's HTTP server calls.
 */
import { type Envelope, EnvelopeSchema, type ExtendedEnvelope, ExtendedEnvelopeSchema } from "../../../apm/schemas"
import type { SimRequest, SimResponse } from "../../http-types"
import { ApmSimulator } from "../index"

export const CREDENTIALS = { consumerKey: "merchant-key", consumerSecret: "merchant-secret" }
export const PUBLIC_URL = "http://sim.test:4010"
export const BASE = "/ms/aapay/v2/transaction"
export const JSON_V2 = "application/json;charset=utf-8;version=2.0"

export function bearer(consumerKey = CREDENTIALS.consumerKey, consumerSecret = CREDENTIALS.consumerSecret): string {
  return `Bearer ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString("base64")}`
}

export interface TestSimulator {
  sim: ApmSimulator
  /** How many times onChange was called. */
  changes(): number
  /** Moves the simulator's clock forward. */
  tick(seconds: number): void
}

export function makeSimulator(credentials = CREDENTIALS): TestSimulator {
  let clock = Date.parse("2025-03-01T10:00:00.000Z")
  let changes = 0
  const sim = new ApmSimulator({
    ...credentials,
    publicUrl: `${PUBLIC_URL}/`,
    now: () => new Date(clock),
    onChange: () => {
      changes++
    },
  })
  return { sim, changes: () => changes, tick: (seconds) => (clock += seconds * 1000) }
}

export function simRequest(partial: Partial<SimRequest> & { path: string }): SimRequest {
  return { method: "GET", query: new URLSearchParams(), headers: {}, body: undefined, rawBody: "", ...partial }
}

export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchantId: "M-100",
    method: "PSP_B",
    purchaseAmount: { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 250, totalAmount: 1250 },
    consumer: { consumerId: "+4712345678", name: "Kari Nordmann" },
    ...overrides,
  }
}

export interface PostOptions {
  headers?: Record<string, string | undefined>
  idempotencyKey?: string
  rawBody?: string
}

/** POSTs JSON to initialize (or initializeWithIdempotency when a key is given) with valid credentials. */
export function postInitialize(
  sim: ApmSimulator,
  type: string,
  body: unknown,
  options: PostOptions = {},
): Promise<SimResponse> {
  const operation = options.idempotencyKey === undefined ? "initialize" : "initializeWithIdempotency"
  return sim.handle(
    simRequest({
      method: "POST",
      path: `${BASE}/${type}/${operation}`,
      headers: {
        authorization: bearer(),
        "content-type": JSON_V2,
        ...(options.idempotencyKey === undefined ? {} : { "idempotency-key": options.idempotencyKey }),
        ...options.headers,
      },
      body,
      rawBody: options.rawBody ?? JSON.stringify(body),
    }),
  )
}

export function getStatus(sim: ApmSimulator, transactionId: number | string, query = ""): Promise<SimResponse> {
  return sim.handle(
    simRequest({
      path: `${BASE}/${transactionId}`,
      query: new URLSearchParams(query),
      headers: { authorization: bearer() },
    }),
  )
}

/** Parses with the contract's schema, so every test also checks the envelope shape. */
export function envelopeOf(response: SimResponse): Envelope {
  return EnvelopeSchema.parse(response.body)
}

export function extendedOf(response: SimResponse): ExtendedEnvelope {
  return ExtendedEnvelopeSchema.parse(response.body)
}

export function transactionOf(response: SimResponse) {
  const transaction = envelopeOf(response).response?.request?.transaction
  if (!transaction) throw new Error(`no transaction in ${JSON.stringify(response.body)}`)
  return transaction
}

export function faultsOf(response: SimResponse) {
  return envelopeOf(response).error?.componsiteFault?.faults ?? []
}

/** The params.field of every fault, to assert which fields a 400 names. */
export function faultFields(response: SimResponse): string[] {
  return faultsOf(response).map((fault) => fault.params?.field ?? fault.params?.header ?? "")
}

export async function createPayment(sim: ApmSimulator, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await postInitialize(sim, "payment", paymentBody(overrides))
  if (response.status !== 202 && response.status !== 201)
    throw new Error(`payment refused: ${JSON.stringify(response.body)}`)
  return Number(transactionOf(response).transactionId)
}

/** A payment the consumer approved: FINALIZED with COMMIT. */
export async function createFinalizedPayment(
  sim: ApmSimulator,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const transactionId = await createPayment(sim, overrides)
  const approval = sim.control("approve", String(transactionId))
  if (approval.status !== 200) throw new Error(`approval failed: ${JSON.stringify(approval.body)}`)
  return transactionId
}

export function refundBody(originalId: number, totalAmount: number, overrides: Record<string, unknown> = {}) {
  return paymentBody({
    purchaseAmount: { currencyCode: "EUR", nominalAmount: totalAmount, vatAmount: 0, totalAmount },
    originalReference: String(originalId),
    ...overrides,
  })
}

export function reversalBody(originalId: number, overrides: Record<string, unknown> = {}) {
  return paymentBody({ originalReference: String(originalId), terminalReference: "T-1", ...overrides })
}
