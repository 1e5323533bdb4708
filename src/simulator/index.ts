/**
 * medusa-payment-nexi/simulator: an offline stand-in for the Nexi XPay card gateway and the
 * alternative-payment service, for tests, demos and benchmarks. See docs/simulator.md.
 */

export type { FaultAction, RequestFault, RequestFaultInput } from "./faults"
export type { RefundSettlement } from "./gateway/refund-settlement"
export type { HostedOutcome } from "./hpp/flow"
export type { SimRequest, SimResponse } from "./http-types"
export type { DeliveryOutcome, NotificationFaults, NotificationRecord } from "./notifications"
export { APM_BASE_PATH, CONTROL_BASE_PATH, DEFAULTS, GATEWAY_BASE_PATH, type SimulatorOptions } from "./options"
export type { RecordedRequest, RequestLogView } from "./request-log"
export { type RunningSimulator, startSimulator } from "./simulator"
