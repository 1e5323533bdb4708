/**
 * POST /admin/nexi/card-verifications: asks the gateway whether a card is valid
 * (POST /orders/card_verification) without moving money. The gateway wants an order: a new
 * order id, amount 0, in the store's default currency. A declined card is an answer
 * (result DECLINED), not an error; a card the gateway cannot read is a 400 in its words.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { readCardOrder } from "../core/card/card-order"
import { ByOrderId, operationIdOf } from "../core/card/card-writes"
import { idempotencyUuid } from "../core/idempotency"
import { sendUnrecorded } from "../core/send-once"
import { cardProviderIdOf, gatewayClientFor, requireNexiOptions } from "../core/store-entries"
import { newOrderId } from "../gateway/order-id"
import type { Operation, Order } from "../gateway/schemas"
import { type CardInput, cardRequestError, gatewayCard } from "./card-input"
import type { NexiCardVerificationResponse } from "./contract"

export interface CardVerificationInput {
  card: CardInput
  customerEmail?: string
}

/** When the store names no default currency, the gateway still needs one for the 0 amount. */
const FALLBACK_CURRENCY = "EUR"

async function storeCurrency(container: MedusaContainer): Promise<string> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "store",
    fields: ["supported_currencies.currency_code", "supported_currencies.is_default"],
  })
  const currencies = (
    (data[0] as { supported_currencies?: Array<{ currency_code: string; is_default?: boolean } | null> })
      ?.supported_currencies ?? []
  ).filter(Boolean)
  const preferred = currencies.find((currency) => currency?.is_default) ?? currencies[0]
  return (preferred?.currency_code ?? FALLBACK_CURRENCY).toUpperCase()
}

export async function verifyCard(
  container: MedusaContainer,
  input: CardVerificationInput,
): Promise<NexiCardVerificationResponse> {
  const providerId = await cardProviderIdOf(container)
  const gateway = gatewayClientFor(container, providerId)
  const order: Order = {
    orderId: newOrderId(requireNexiOptions(container, providerId).orderIdPrefix),
    amount: "0",
    currency: await storeCurrency(container),
    description: "Card verification",
    ...(input.customerEmail ? { customerInfo: { cardHolderEmail: input.customerEmail } } : {}),
  }
  const request = { order, card: gatewayCard(input.card) }
  const key = idempotencyUuid(`card-verification:${order.orderId}`)
  const recover = new ByOrderId(gateway, order.orderId)
  let answered: Operation | undefined
  const send = async () => {
    answered = (await gateway.verifyCard(request, key)).operation
    return operationIdOf(answered)
  }
  // It moves no money, so the ledger does not hold it; a lost answer is found by its order id.
  await sendUnrecorded(send, recover, { action: "verify the card", label: "card verification" }).catch((error) => {
    throw cardRequestError(error, "card verification")
  })
  const details = answered ? { orderStatus: { order }, operations: [answered], paymentLinks: [] } : recover.found
  const read = details && readCardOrder(details)
  // The latest operation in the read model's one order of operations.
  const operation = read?.operations.at(-1)?.operation
  return {
    operation_id: operation?.operationId ?? "",
    result: operation?.operationResult ?? "UNKNOWN",
    valid: read?.verification !== undefined,
    circuit: operation?.paymentCircuit ?? null,
    masked_card: operation?.paymentInstrumentInfo ?? null,
  }
}
