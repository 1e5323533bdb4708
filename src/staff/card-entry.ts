/**
 * Card data typed by staff: a MOTO payment for an order (POST /admin/nexi/moto) and a card
 * verification (POST /admin/nexi/card-verifications). The card is checked here so an obvious
 * typo is answered at once with the field to fix, before the gateway is called. The data is
 * passed straight to the gateway and only ever in its request's memory: never stored, logged or
 * echoed. Messages name the field and the rule, never the value, and gateway error texts are
 * masked before anyone sees them.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { readCardOrder } from "../core/card/card-order"
import { ByOrderId, operationIdOf } from "../core/card/card-writes"
import { idempotencyUuid } from "../core/idempotency"
import { toMedusaError } from "../core/medusa-errors"
import { sendOnce } from "../core/send-once"
import { cardProviderIdOf, gatewayClientFor, ledgerOf, requireNexiOptions } from "../core/store-entries"
import { newOrderId } from "../gateway/order-id"
import type { Card, CustomerInfo, MotoRequest, Operation, Order } from "../gateway/schemas"
import { InvalidRequestError, type NexiError } from "../http/errors"
import { passesLuhn } from "../http/luhn"
import { maskPans } from "../http/redact"
import { CARD_VERIFICATION_KIND } from "../modules/nexi-ledger/types"
import type { OrderTargetField } from "./collection-plan"
import type { NexiCardVerificationResponse, NexiStaffChargeResponse } from "./contract"
import {
  chargeOnce,
  type StaffAttempt,
  staffGatewayOrder,
  startStaffAttempt,
  withCollectionLock,
} from "./order-collection"

const requiredString = (rule: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? "is required" : `must be a string of ${rule}`) })

/** MMYY whose month has not ended yet (UTC; a card is valid through the last day of its month). */
function notExpired(expiryDate: string, now: Date): boolean {
  const month = Number(expiryDate.slice(0, 2))
  const year = 2000 + Number(expiryDate.slice(2, 4))
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1)
}

export function cardInputSchema(now: () => Date = () => new Date()) {
  const shape = {
    pan: requiredString("digits")
      .regex(/^\d{13,19}$/, { message: "must be 13 to 19 digits, without spaces", abort: true })
      .refine(passesLuhn, "is not a valid card number (its check digit is wrong)"),
    expiryDate: requiredString("MMYY")
      .regex(/^(0[1-9]|1[0-2])\d{2}$/, { message: "must be MMYY, for example 1230 for December 2030", abort: true })
      .refine((value) => notExpired(value, now()), "the card has expired"),
    cvv: requiredString("3 or 4 digits")
      .regex(/^\d{3,4}$/, "must be 3 or 4 digits")
      .optional(),
  }
  return z.strictObject(shape, {
    error: (issue) => (issue.input === undefined ? "is required" : "must be an object { pan, expiryDate, cvv? }"),
  })
}

export type CardInput = z.output<ReturnType<typeof cardInputSchema>>

/** The gateway's card object, holding nothing but what staff typed. */
export function gatewayCard(card: CardInput): Card {
  return { pan: card.pan, expiryDate: card.expiryDate, ...(card.cvv ? { cvv: card.cvv } : {}) }
}

/** The gateway's own words about a refused card, with any card number in them masked. */
function maskedGatewayDetails(error: NexiError): string {
  const details = error.details.map((detail) =>
    detail.code ? `${detail.code}: ${detail.description}` : detail.description,
  )
  return maskPans(details.join("; "))
}

/** What staff see when a request carrying card data fails; `what` names it ("MOTO payment"). */
export function cardRequestError(error: unknown, what: string): MedusaError {
  if (error instanceof MedusaError) return error
  if (error instanceof InvalidRequestError) {
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The Nexi gateway refused the ${what}: ${maskedGatewayDetails(error) || "no reason given"}. Nothing was charged.`,
    )
  }
  return toMedusaError(error, `make the ${what}`)
}

/*
 * A MOTO payment: a card payment taken by phone or mail for a draft order or an order.
 *
 * The order's collection and the session holding this attempt's gateway order id come from the
 * staff pipeline (order-collection.ts, channel `moto`). The card goes straight to the gateway
 * (POST /orders/moto) under that order id, with an idempotency key derived from the Medusa order
 * and the session (the attempt), sent once and recorded in Medusa by its `chargeOnce`. Staff then
 * capture, refund and cancel it with Medusa's buttons. An order lock keeps two requests for one
 * order from running at once.
 */
export interface MotoInput {
  field: OrderTargetField
  orderId: string
  card: CardInput
  cardHolderName?: string
}

export async function payByMoto(container: MedusaContainer, input: MotoInput): Promise<NexiStaffChargeResponse> {
  return withCollectionLock(container, input.orderId, "moto", () => payLocked(container, input))
}

async function payLocked(container: MedusaContainer, input: MotoInput): Promise<NexiStaffChargeResponse> {
  const attempt = await startStaffAttempt(container, { orderId: input.orderId, field: input.field, channel: "moto" })
  const request = motoRequest(container, attempt, input)
  return chargeOnce(container, {
    attempt,
    kind: "moto",
    action: "take the MOTO payment",
    order: request.order,
    send: (gateway, key) => gateway.createMotoPayment(request, key),
    requestError: (error) => cardRequestError(error, "MOTO payment"),
    cardText: (payment) => [payment.circuit, payment.masked_card].filter(Boolean).join(" ") || "the card",
    how: " by MOTO",
  })
}

function motoRequest(container: MedusaContainer, attempt: StaffAttempt, input: MotoInput): MotoRequest {
  const { order } = attempt
  const customerInfo: CustomerInfo = {
    ...(input.cardHolderName ? { cardHolderName: input.cardHolderName } : {}),
    ...(order.email ? { cardHolderEmail: order.email } : {}),
  }
  return {
    order: {
      ...staffGatewayOrder(attempt, `MOTO payment of order ${order.display_id ?? order.id}`),
      ...(order.customer_id ? { customerId: order.customer_id } : {}),
      ...(Object.keys(customerInfo).length ? { customerInfo } : {}),
    },
    card: gatewayCard(input.card),
    captureType: requireNexiOptions(container, attempt.providerId).captureType,
  }
}

/*
 * A card verification: asks the gateway whether a card is valid (POST /orders/card_verification)
 * without moving money. The gateway wants an order: a new order id, amount 0, in the store's
 * default currency. A declined card is an answer (result DECLINED), not an error; a card the
 * gateway cannot read is a 400 in its words.
 */
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
  // A lost answer is found by its order id.
  const write = {
    kind: CARD_VERIFICATION_KIND,
    idempotency_key: key,
    gateway_ref: order.orderId,
    amount_minor: "0",
    currency: order.currency,
    origin: "staff" as const,
  }
  const plan = { ledger: ledgerOf(container), write, label: "card verification", action: "verify the card" }
  await sendOnce({ ...plan, send, recover }).catch((error) => {
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
