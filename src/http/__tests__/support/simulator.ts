/**
 * Starts the project's simulator for client tests and wraps its control API (/__sim), so the
 * endpoint tests read as "pay this order", "fail the next capture". Control calls use the
 * platform fetch on purpose: they are test plumbing, not the clients under test.
 */
import { type RequestFaultInput, type RunningSimulator, startSimulator } from "../../../simulator"

export const SIM_API_KEY = "5d952446-9004-4023-9eae-a527a152846b"
export const SIM_CONSUMER_KEY = "sim-key"
export const SIM_CONSUMER_SECRET = "sim-secret"

export const APPROVED_CARD = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
export const DECLINED_CARD = { pan: "5515931855858729", expiryDate: "1230", cvv: "399" }

export interface SimRecordedRequest {
  method: string
  path: string
  status: number
  correlationId?: string
  idempotencyKey?: string
}

export class SimulatorHarness {
  private constructor(readonly sim: RunningSimulator) {}

  static async start(): Promise<SimulatorHarness> {
    return new SimulatorHarness(await startSimulator({ port: 0, control: true }))
  }

  /** The full URL path of a gateway endpoint, as the request log records it. */
  gatewayPath(path: string): string {
    return new URL(this.sim.gatewayUrl).pathname + path
  }

  apmPath(path: string): string {
    return new URL(this.sim.apmUrl).pathname + path
  }

  async reset(): Promise<void> {
    await this.control("POST", "/reset")
    await this.control("DELETE", "/faults")
  }

  async requests(): Promise<SimRecordedRequest[]> {
    const view = (await this.control("GET", "/requests")) as { requests: SimRecordedRequest[] }
    return view.requests
  }

  /** Requests whose full path matches the pattern ("*" = one segment), control calls excluded. */
  async requestsTo(method: string, pathPattern: string): Promise<SimRecordedRequest[]> {
    const pattern = new RegExp(`^${pathPattern.replace(/[.?+^$()[\]{}|\\]/g, "\\$&").replace(/\*/g, "[^/]+")}$`)
    return (await this.requests()).filter((request) => request.method === method && pattern.test(request.path))
  }

  async fault(fault: RequestFaultInput): Promise<void> {
    await this.control("POST", "/faults", fault)
  }

  /** Pays a hosted order as a cardholder would, without a browser. */
  async payHostedOrder(orderId: string, card = APPROVED_CARD): Promise<void> {
    await this.control("POST", `/hpp/${encodeURIComponent(orderId)}/pay`, { ...card, challenge: "pass" })
  }

  /** Pays a payment link as a cardholder would, without a browser; answers the hosted outcome. */
  async payLink(linkId: string, card = APPROVED_CARD): Promise<{ result: string }> {
    return (await this.control("POST", `/paybylink/${encodeURIComponent(linkId)}/pay`, card)) as { result: string }
  }

  async decideApm(transactionId: number | string, action: "approve" | "reject" | "expire"): Promise<void> {
    await this.control("POST", `/apm/${transactionId}/${action}`)
  }

  close(): Promise<void> {
    return this.sim.close()
  }

  private async control(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.sim.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`simulator control ${method} ${path} answered ${response.status}: ${text}`)
    return text ? JSON.parse(text) : undefined
  }
}
