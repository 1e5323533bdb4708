/**
 * Card-on-file contracts (paymentSession.recurrence): which card a hosted order pays with or
 * saves, and saving it once the payment succeeds. A contract belongs to one customer of one
 * merchant; for any other customer it does not exist, exactly as an unknown one.
 */
import { type CheckedCard, expiryHasPassed, expiryText } from "../cards"
import type { GatewayStore, StoredContract, StoredOrder } from "./store"

/** What a hosted order does with a saved card. */
export type CardOnFile =
  | { kind: "none" }
  /** CONTRACT_CREATION (replaces: false) or CARD_SUBSTITUTION (replaces: true): the card entered is saved on success. */
  | { kind: "save"; replaces: boolean }
  /** SUBSEQUENT_PAYMENT: the contract's card pays; the shopper gives only its CVV. */
  | { kind: "saved"; contract: StoredContract }

/** The merchant's active contract with this id, if it belongs to this customer. */
export function customerContract(
  store: GatewayStore,
  merchantId: string,
  contractId: string,
  customerId: string | undefined,
): StoredContract | undefined {
  const contract = store.findContract(merchantId, contractId)
  return contract?.state === "active" && contract.customerId === customerId ? contract : undefined
}

export function cardOnFileOf(store: GatewayStore, order: StoredOrder): CardOnFile {
  const recurrence = order.hosted?.paymentSession.recurrence
  switch (recurrence?.action) {
    case "CONTRACT_CREATION":
      return { kind: "save", replaces: false }
    case "CARD_SUBSTITUTION":
      return { kind: "save", replaces: true }
    case "SUBSEQUENT_PAYMENT":
      // Checked when the order was created, and contracts are only removed by a reset, which removes the order too.
      // It may have been deactivated since: the page still shows the card, and the payment is declined (card-entry.ts).
      return { kind: "saved", contract: store.findContract(order.merchantId, recurrence.contractId!)! }
    default:
      return { kind: "none" }
  }
}

/**
 * After an approved payment or verification: creates the contract (CONTRACT_CREATION) or puts
 * the new card on it (CARD_SUBSTITUTION). Other orders save nothing.
 */
export function saveCardOnFile(store: GatewayStore, order: StoredOrder, card: CheckedCard, now: Date): void {
  const recurrence = order.hosted?.paymentSession.recurrence
  if (recurrence?.action === "CARD_SUBSTITUTION") {
    // A contract deactivated while the page was open stays deactivated, with its old card.
    const contract = contractOf(store, order)
    if (contract) store.saveContract({ ...contract, card })
    return
  }
  if (recurrence?.action !== "CONTRACT_CREATION") return
  const contractId = recurrence.contractId!
  // Two open orders may name the same new contractId: the first to succeed creates the contract,
  // and the other saves nothing, so no payment ever puts its card on a contract it did not create.
  if (store.findContract(order.merchantId, contractId)) return
  store.saveContract({
    merchantId: order.merchantId,
    contractId,
    customerId: order.order.customerId!,
    contractType: recurrence.contractType!,
    ...(recurrence.contractType === "MIT_SCHEDULED"
      ? { contractExpiryDate: recurrence.contractExpiryDate, contractFrequency: recurrence.contractFrequency }
      : {}),
    state: "active",
    card,
    createdAt: now.toISOString(),
    orderId: order.order.orderId,
  })
}

/** Why a saved card can no longer pay by its expiry, if its expiry month has passed. */
export function savedCardExpiry(card: CheckedCard, now: Date): string | undefined {
  return expiryHasPassed(card.expiry, now)
    ? `the saved card expired at the end of ${expiryText(card.expiry)}`
    : undefined
}

/** A contract as GET /contracts/customers/{customerId} answers it. */
export function gatewayContractView(contract: StoredContract) {
  return {
    contractId: contract.contractId,
    contractType: contract.contractType,
    ...(contract.contractExpiryDate ? { contractExpiryDate: contract.contractExpiryDate } : {}),
    ...(contract.contractFrequency ? { contractFrequency: contract.contractFrequency } : {}),
    paymentMethod: "CARD",
    paymentCircuit: contract.card.circuit,
    paymentInstrumentInfo: contract.card.maskedPan,
  }
}

/** What the control API shows of a contract: enough for a test, never the expiry. */
export function contractView(contract: StoredContract) {
  return {
    contractId: contract.contractId,
    customerId: contract.customerId,
    contractType: contract.contractType,
    circuit: contract.card.circuit,
    maskedPan: contract.card.maskedPan,
    state: contract.state,
    createdAt: contract.createdAt,
  }
}

function contractOf(store: GatewayStore, order: StoredOrder): StoredContract | undefined {
  const contractId = order.hosted?.paymentSession.recurrence?.contractId
  return contractId === undefined
    ? undefined
    : customerContract(store, order.merchantId, contractId, order.order.customerId)
}
