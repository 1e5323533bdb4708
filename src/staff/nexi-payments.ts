/**
 * Medusa's side of a Nexi payment: the payment row with its captures and refunds, found by
 * payment id or through an order (order -> payment_collections -> payments), and the totals
 * Medusa holds for it, exact, in the payment's currency.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type BigNumber from "bignumber.js"
import { MONEY_ROW_FIELDS, type MoneyRow, totalOfRows } from "../core/medusa-payments"
import { isNexiProviderId } from "../core/provider-ids"

export interface NexiPaymentRecord {
  id: string
  provider_id: string
  currency_code: string
  data: Record<string, unknown> | null
  payment_session_id: string | null
  payment_collection_id: string | null
  captures: MoneyRow[]
  refunds: MoneyRow[]
}

const PAYMENT_FIELDS = [
  "id",
  "provider_id",
  "currency_code",
  "data",
  "payment_session_id",
  "payment_collection_id",
  ...MONEY_ROW_FIELDS,
]

function normalize(row: Record<string, unknown>): NexiPaymentRecord {
  return {
    ...(row as unknown as NexiPaymentRecord),
    captures: ((row.captures as MoneyRow[] | undefined) ?? []).filter(Boolean),
    refunds: ((row.refunds as MoneyRow[] | undefined) ?? []).filter(Boolean),
  }
}

/** The Nexi payment `paymentId`, or 404; another provider's payment is a 400 naming it. */
export async function loadNexiPayment(container: MedusaContainer, paymentId: string): Promise<NexiPaymentRecord> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "payment", fields: PAYMENT_FIELDS, filters: { id: paymentId } })
  const row = data[0] as Record<string, unknown> | undefined
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `id: no payment ${paymentId}`)
  if (!isNexiProviderId(row.provider_id)) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `id: payment ${paymentId} was made with ${String(row.provider_id)}, not a Nexi provider`,
    )
  }
  return normalize(row)
}

/** Every Nexi payment of the order, oldest collection first; 404 for an unknown order. */
export async function nexiPaymentsOfOrder(container: MedusaContainer, orderId: string): Promise<NexiPaymentRecord[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", ...PAYMENT_FIELDS.map((field) => `payment_collections.payments.${field}`)],
    filters: { id: orderId },
  })
  const order = data[0] as { payment_collections?: Array<{ payments?: Record<string, unknown>[] } | null> } | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `id: no order ${orderId}`)
  return (order.payment_collections ?? [])
    .flatMap((collection) => collection?.payments ?? [])
    .filter((payment) => payment && isNexiProviderId(payment.provider_id))
    .map(normalize)
}

/** What Medusa has recorded as captured and refunded on the payment, in major units. */
export function medusaTotals(payment: NexiPaymentRecord): { captured: BigNumber; refunded: BigNumber } {
  return { captured: totalOfRows(payment.captures), refunded: totalOfRows(payment.refunds) }
}
