/**
 * The card gateway's state: orders, their operations, the idempotency answers and the
 * card-on-file contracts, each belonging to one merchant (one API key). Merchants are kept as a hash of the key, so the
 * state file never holds a key. Amounts and statuses are not stored: ledger.ts derives them
 * from the operations, so they cannot drift apart.
 */
import { createHash, randomBytes } from "node:crypto"
import type {
  CONTRACT_TYPES,
  Operation,
  OperationResult,
  OperationType,
  Order,
  PaymentSession,
} from "../../gateway/schemas"
import type { CheckedCard } from "../cards"
import type { SimResponse } from "../http-types"

export interface HostedSession {
  paymentSession: PaymentSession
  securityToken: string
  /** Opens the hosted page; distinct from securityToken, which must never reach a browser. */
  pageToken: string
  /** open: waiting for a card; challenge: the 3DS challenge is on screen; closed: paid, failed or cancelled. */
  state: "open" | "challenge" | "closed"
  /** The card waiting for the 3DS challenge answer (masked; the number itself is never kept). */
  challengedCard?: CheckedCard
  /** Set on an order of POST /orders/build: the card fields are in the merchant's page (card-fields/). */
  build?: BuildSession
}

/** A Build session: its state is derived from it and the hosted session (card-fields/sessions.ts). */
export interface BuildSession {
  sessionId: string
  /** The origin of the merchant's page: the only one the fields talk to. */
  merchantOrigin: string
  /** Until when the fields can be confirmed and the payment finalized. */
  expiresAt: string
  /** The card the fields confirmed, masked, waiting for POST /build/finalize_payment. */
  confirmed?: ConfirmedCard
}

export interface ConfirmedCard {
  card: CheckedCard
  /** The first six digits, for GET /build/cardData (not PCI data, like the last four). */
  bin: string
}

/** The link of a POST /orders/paybylink order; its hosted session is the page the link opens. */
export interface StoredPaymentLink {
  linkId: string
  link: string
  /** The end of the expirationDate day (UTC), as the order lookup answers it. */
  expiresAt: string
  cancelled: boolean
  /** The approved operation that paid the link. */
  paidByOperationId?: string
}

export interface StoredOrder {
  merchantId: string
  order: Order
  createdAt: string
  hosted?: HostedSession
  paymentLink?: StoredPaymentLink
  operationIds: string[]
}

/** An operation record as the API answers it, with the fields the simulator always sets. */
export type OperationRecord = Operation & {
  orderId: string
  operationId: string
  operationType: OperationType
  operationResult: OperationResult
  operationTime: string
  operationAmount: string
  operationCurrency: string
}

export interface StoredOperation {
  merchantId: string
  record: OperationRecord
  /** The operation this one acts on: the authorization a capture captures, the capture a refund refunds. */
  appliesTo?: string
  /** When a PENDING refund settles on its own (ISO time); absent when it waits for a manual settle. */
  settlesAt?: string
}

/** A card saved for a customer by a successful CONTRACT_CREATION payment (contracts.ts). */
export interface StoredContract {
  merchantId: string
  contractId: string
  /** order.customerId of the creating order: only that customer's orders may use the contract. */
  customerId: string
  contractType: (typeof CONTRACT_TYPES)[number]
  /** MIT_SCHEDULED only: until when, and every how many days, the merchant may charge. */
  contractExpiryDate?: string
  contractFrequency?: string
  /** deactivated: by POST /contracts/{contractId}/deactivation; nothing can be charged on it again. */
  state: "active" | "deactivated"
  deactivatedAt?: string
  /** Masked, with its expiry month; the number and the CVV are never kept. */
  card: CheckedCard
  createdAt: string
  /** The order whose payment created the contract. */
  orderId: string
}

interface StoredAnswer {
  status: number
  body: unknown
  /** The request the answer belongs to, on endpoints that refuse a key reused for another request. */
  fingerprint?: string
}

interface GatewaySnapshot {
  orders: StoredOrder[]
  operations: StoredOperation[]
  idempotency: Record<string, StoredAnswer>
  contracts: StoredContract[]
}

export function merchantIdOf(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 16)
}

export class GatewayStore {
  private orders = new Map<string, StoredOrder>()
  private operations = new Map<string, StoredOperation>()
  private idempotency = new Map<string, StoredAnswer>()
  private contracts = new Map<string, StoredContract>()

  /** Called after every change, so the state file can follow. */
  constructor(private readonly onChange: () => void) {}

  changed(): void {
    this.onChange()
  }

  addOrder(order: StoredOrder): void {
    this.orders.set(merchantKey(order.merchantId, order.order.orderId), order)
    this.changed()
  }

  findOrder(merchantId: string, orderId: string): StoredOrder | undefined {
    return this.orders.get(merchantKey(merchantId, orderId))
  }

  findOrderByPageToken(pageToken: string): StoredOrder | undefined {
    for (const order of this.orders.values()) if (order.hosted?.pageToken === pageToken) return order
    return undefined
  }

  /** The order of a Build session; without a merchant, across merchants (the fields' pages know no API key). */
  findOrderByBuildSession(sessionId: string, merchantId?: string): StoredOrder | undefined {
    for (const order of this.orders.values()) {
      if (order.hosted?.build?.sessionId === sessionId && (merchantId === undefined || order.merchantId === merchantId))
        return order
    }
    return undefined
  }

  /** Hosted orders with this id, across merchants (the control API knows no API key). */
  hostedOrdersWithId(orderId: string): StoredOrder[] {
    return [...this.orders.values()].filter((order) => order.hosted && order.order.orderId === orderId)
  }

  ordersOf(merchantId: string): StoredOrder[] {
    return [...this.orders.values()].filter((order) => order.merchantId === merchantId)
  }

  addOperation(order: StoredOrder, operation: StoredOperation): void {
    this.operations.set(operation.record.operationId, operation)
    order.operationIds.push(operation.record.operationId)
    this.changed()
  }

  findOperation(merchantId: string, operationId: string): StoredOperation | undefined {
    const operation = this.operations.get(operationId)
    return operation?.merchantId === merchantId ? operation : undefined
  }

  operationsOf(order: StoredOrder): StoredOperation[] {
    return order.operationIds.map((id) => this.operations.get(id)!)
  }

  operationsOfMerchant(merchantId: string): StoredOperation[] {
    return [...this.operations.values()].filter((operation) => operation.merchantId === merchantId)
  }

  orderOf(operation: StoredOperation): StoredOrder {
    return this.findOrder(operation.merchantId, operation.record.orderId)!
  }

  pendingRefunds(): StoredOperation[] {
    return [...this.operations.values()].filter(
      ({ record }) => record.operationType === "REFUND" && record.operationResult === "PENDING",
    )
  }

  newOperationId(): string {
    let id: string
    do {
      id = String(10n ** 14n + (randomBytes(8).readBigUInt64BE() % (9n * 10n ** 14n)))
    } while (this.operations.has(id))
    return id
  }

  rememberAnswer(merchantId: string, idempotencyKey: string, answer: SimResponse, fingerprint?: string): void {
    this.idempotency.set(merchantKey(merchantId, idempotencyKey), {
      status: answer.status,
      body: answer.body,
      ...(fingerprint === undefined ? {} : { fingerprint }),
    })
    this.changed()
  }

  rememberedAnswer(merchantId: string, idempotencyKey: string): StoredAnswer | undefined {
    return this.idempotency.get(merchantKey(merchantId, idempotencyKey))
  }

  findOrderByLinkId(merchantId: string, linkId: string): StoredOrder | undefined {
    return this.ordersOf(merchantId).find((order) => order.paymentLink?.linkId === linkId)
  }

  /** Orders with this link id, across merchants (the control API knows no API key). */
  ordersWithLinkId(linkId: string): StoredOrder[] {
    return [...this.orders.values()].filter((order) => order.paymentLink?.linkId === linkId)
  }

  /** Saves a new contract, or the contract with its card substituted. */
  saveContract(contract: StoredContract): void {
    this.contracts.set(merchantKey(contract.merchantId, contract.contractId), contract)
    this.changed()
  }

  findContract(merchantId: string, contractId: string): StoredContract | undefined {
    return this.contracts.get(merchantKey(merchantId, contractId))
  }

  contractsOfCustomer(merchantId: string, customerId: string): StoredContract[] {
    return [...this.contracts.values()].filter(
      (contract) => contract.merchantId === merchantId && contract.customerId === customerId,
    )
  }

  /** Every merchant's contracts (the control API knows no API key). */
  allContracts(): StoredContract[] {
    return [...this.contracts.values()]
  }

  snapshot(): GatewaySnapshot {
    return {
      orders: [...this.orders.values()],
      operations: [...this.operations.values()],
      idempotency: Object.fromEntries(this.idempotency),
      contracts: [...this.contracts.values()],
    }
  }

  restore(snapshot: unknown): void {
    const { orders, operations, idempotency, contracts } = snapshot as GatewaySnapshot
    this.orders = new Map(orders.map((order) => [merchantKey(order.merchantId, order.order.orderId), order]))
    this.operations = new Map(operations.map((operation) => [operation.record.operationId, operation]))
    this.idempotency = new Map(Object.entries(idempotency))
    // State files written before contracts existed have none.
    this.contracts = new Map(
      (contracts ?? []).map((contract) => [merchantKey(contract.merchantId, contract.contractId), contract]),
    )
  }

  reset(): void {
    this.orders.clear()
    this.operations.clear()
    this.idempotency.clear()
    this.contracts.clear()
    this.changed()
  }
}

function merchantKey(merchantId: string, id: string): string {
  return `${merchantId} ${id}`
}

export function newSecret(): string {
  return randomBytes(18).toString("base64url")
}
