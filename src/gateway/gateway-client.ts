/**
 * What the plugin needs from the card gateway: one method per endpoint of docs/contract/gateway.md.
 * Providers, admin routes, the reconciliation job and the benchmark depend on this
 * interface, never on the HTTP implementation, so tests can point them anywhere.
 */
import type {
  CancelRequest,
  CardVerificationRequest,
  HppRequest,
  HppResponse,
  ListOperationsQuery,
  ListOrdersQuery,
  MotoRequest,
  Operation,
  OperationList,
  OperationResponse,
  OrderDetails,
  OrderList,
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
}
