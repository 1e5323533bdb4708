/**
 * What the plugin needs from the card gateway: one method per endpoint of docs/contract/gateway.md.
 * Providers, admin routes, the reconciliation job and the benchmark depend on this
 * interface, never on the HTTP implementation, so tests can point them anywhere.
 */
import type {
  BuildRequest,
  BuildResponse,
  BuildStateResponse,
  CancelRequest,
  CardVerificationRequest,
  CustomerContracts,
  HppRequest,
  HppResponse,
  ListOperationsQuery,
  ListOrdersQuery,
  MitRequest,
  MotoRequest,
  Operation,
  OperationList,
  OperationResponse,
  OrderDetails,
  OrderList,
  PayByLinkRequest,
  PayByLinkResponse,
  PaymentMethodList,
  PostOperationRequest,
  PostOperationResponse,
} from "./schemas"

export interface GatewayClient {
  createHostedOrder(body: HppRequest): Promise<HppResponse>
  /**
   * With `idempotencyKey` (stable across retries of one logical payment) the transport may
   * repeat the request after a lost answer; the gateway also refuses an orderId it has seen.
   */
  createMotoPayment(body: MotoRequest, idempotencyKey?: string): Promise<OperationResponse>
  verifyCard(body: CardVerificationRequest, idempotencyKey?: string): Promise<OperationResponse>
  listOrders(query?: ListOrdersQuery): Promise<OrderList>
  getOrder(orderId: string): Promise<OrderDetails>
  listOperations(query?: ListOperationsQuery): Promise<OperationList>
  getOperation(operationId: string): Promise<Operation>
  /** `idempotencyKey` must be the same on every retry of one logical capture. */
  capture(operationId: string, body: PostOperationRequest, idempotencyKey: string): Promise<PostOperationResponse>
  /** `idempotencyKey` must be the same on every retry of one logical refund. */
  refund(operationId: string, body: PostOperationRequest, idempotencyKey: string): Promise<PostOperationResponse>
  cancelCapture(operationId: string, body?: CancelRequest): Promise<PostOperationResponse>
  listPaymentMethods(): Promise<PaymentMethodList>
  /**
   * A merchant-initiated charge of a contract (MIT_* only; the gateway refuses a CIT one).
   * `idempotencyKey` must be the same on every retry of one logical charge: the gateway replays
   * the first answer, and refuses the key for a different request. A lost answer is found again
   * with getOrder(order.orderId).
   */
  chargeContract(body: MitRequest, idempotencyKey: string): Promise<OperationResponse>
  /** Not retried after a lost answer (no key): getOrder(order.orderId) lists the link, but not its securityToken. */
  createPaymentLink(body: PayByLinkRequest): Promise<PayByLinkResponse>
  /** An unpaid link can no longer be paid; cancelling it again is harmless. */
  cancelPaymentLink(linkId: string): Promise<void>
  /**
   * XPay Build: a gateway order whose card is typed in the gateway's fields in the merchant's page.
   * No key, as for a hosted order: a lost answer leaves an order nobody can pay.
   */
  createBuildSession(body: BuildRequest): Promise<BuildResponse>
  /** Pays with the card the fields confirmed; refused a second time (read getBuildState after a lost answer). */
  finalizeBuildPayment(sessionId: string): Promise<BuildStateResponse>
  getBuildState(sessionId: string): Promise<BuildStateResponse>
  /** The contract can no longer be charged or used; deactivating it again is harmless. */
  deactivateContract(contractId: string): Promise<void>
  /** The customer's usable contracts; none is an empty list (the gateway answers 404). */
  listCustomerContracts(customerId: string): Promise<CustomerContracts>
}
