/**
 * XPay Build's last step, behind POST /store/nexi/payment-sessions/:id/finalize: once the SDK
 * reported READY_FOR_PAYMENT in the checkout, the store pays with the card the fields confirmed
 * (POST /build/finalize_payment) and tells the page what to do next.
 *
 * Only for the cart's own session (another cart's reads as unknown, as on the status route),
 * while the cart is open and its total is still the one the session was opened for: the gateway
 * order's amount is fixed when the fields open, so a cart that changed needs a new session (Medusa
 * deletes the sessions of a cart whose total changed, which supersedes the attempt). At most once:
 * one ledger write per Build session, through the one sender; a lost answer, or a second finalize,
 * is settled by the session's state at the gateway. What the payment made is then read and
 * recorded like a hosted payment's, by the notification, the job and the status poll (card-sync.ts).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { GatewayClient } from "../../gateway/gateway-client"
import type { BuildStateResponse } from "../../gateway/schemas"
import { cartOfCollection } from "../cart-context"
import { buildFinalizeKey } from "../idempotency"
import { minorUnitsFor, toMedusaError } from "../medusa-errors"
import { sendOnce } from "../send-once"
import { gatewayClientFor, isNexiCardProviderId, ledgerOf } from "../store-entries"
import { readCardOrder } from "./card-order"
import { readCardSessionData } from "./card-sessions"
import { ByBuildState } from "./card-writes"
import { WALLET_KEY } from "./wallet-choice"

/** What the page does next. */
export type BuildNextStep =
  /** Paid: complete the cart (POST /store/carts/:id/complete). */
  | { next: "complete_cart" }
  /** 3-D Secure asks for a challenge: send the shopper to `url`; it returns to the `resultUrl` page. */
  | { next: "redirect"; url: string }
  /** Not paid: show `reason`; a new payment session lets the shopper try again. */
  | { next: "declined"; reason: string }
  /** The gateway has no outcome yet: poll GET /store/nexi/payment-sessions/:id. */
  | { next: "wait" }

const ACTION = "pay with the card fields"

function notFound(): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
}

function alreadyCompleted(cartId: string): MedusaError {
  return new MedusaError(MedusaError.Types.CONFLICT, `Cart ${cartId} is already completed: there is nothing to pay.`)
}

function startAgain(why: string): MedusaError {
  return new MedusaError(
    MedusaError.Types.CONFLICT,
    `${why}: start a new payment session (POST /store/payment-collections/:id/payment-sessions) and show its card fields.`,
  )
}

interface SessionRow {
  provider_id: string
  payment_collection_id: string
  data: Record<string, unknown> | null
}

interface CartRow {
  completed_at: string | Date | null
  total: unknown
}

async function readOne<Row>(container: MedusaContainer, entity: string, id: string, fields: (keyof Row & string)[]) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity, fields, filters: { id } })
  return data[0] as Row | undefined
}

export async function finalizeBuildSession(
  container: MedusaContainer,
  { sessionId, cartId }: { sessionId: string; cartId: string },
): Promise<BuildNextStep> {
  const session = await readOne<SessionRow>(container, "payment_session", sessionId, [
    "provider_id",
    "payment_collection_id",
    "data",
  ])
  if (!session) {
    // Deleted: Medusa drops a cart's sessions when its total changes, or when another session
    // replaces it (the cart may be paid and completed by now). The ledger still knows it was this cart's.
    const attempts = await ledgerOf(container).attemptsOfSession(sessionId)
    if (!attempts.some((attempt) => attempt.cart_id === cartId)) throw notFound()
    const cart = await readOne<CartRow>(container, "cart", cartId, ["completed_at"])
    if (cart?.completed_at) throw alreadyCompleted(cartId)
    throw startAgain("This payment session ended: the cart changed after the card fields opened")
  }
  if (!isNexiCardProviderId(session.provider_id)) throw notFound()
  if ((await cartOfCollection(container, session.payment_collection_id)) !== cartId) throw notFound()
  const cart = await readOne<CartRow>(container, "cart", cartId, ["completed_at", "total"])
  if (!cart) throw notFound()
  if (cart.completed_at) throw alreadyCompleted(cartId)
  const data = readCardSessionData(session.data ?? undefined)
  const buildSessionId = data.build_session_id
  const orderId = data.order_id
  if (!buildSessionId || !orderId || !data.amount_minor || !data.currency) {
    const wallet = session.data?.[WALLET_KEY]
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      wallet
        ? `Payment session ${sessionId} pays with ${wallet} on the gateway's page: send the shopper to its data.hosted_page; there is nothing to finalize.`
        : `Payment session ${sessionId} has no card fields to pay with: open it with data.integration "build".`,
    )
  }
  if (minorUnitsFor(cart.total, data.currency, ACTION) !== data.amount_minor) {
    throw startAgain("The cart's total changed after the card fields opened")
  }
  const gateway = gatewayClientFor(container, session.provider_id)
  let answered: BuildStateResponse | undefined
  try {
    await sendOnce({
      ledger: ledgerOf(container),
      write: {
        kind: "build_finalize",
        origin: "medusa",
        idempotency_key: buildFinalizeKey(buildSessionId),
        gateway_ref: orderId,
        target_ref: buildSessionId,
        amount_minor: data.amount_minor,
        currency: data.currency,
      },
      label: `payment of gateway order ${orderId} with the card fields`,
      action: ACTION,
      recover: new ByBuildState(gateway, buildSessionId),
      send: async () => {
        answered = await gateway.finalizeBuildPayment(buildSessionId)
        return buildSessionId
      },
    })
    return await nextStep(gateway, orderId, answered ?? (await gateway.getBuildState(buildSessionId)))
  } catch (error) {
    throw toMedusaError(error, ACTION)
  }
}

/** The outcome is read from the gateway order through the one read model, as every other reader does. */
async function nextStep(gateway: GatewayClient, orderId: string, state: BuildStateResponse): Promise<BuildNextStep> {
  if (state.state === "REDIRECTED_TO_EXTERNAL_DOMAIN" && state.url) return { next: "redirect", url: state.url }
  if (state.state !== "PAYMENT_COMPLETE") return { next: "wait" }
  const order = readCardOrder(await gateway.getOrder(orderId))
  if (order.status === "authorized" || order.status === "captured") return { next: "complete_cart" }
  if (order.status === "pending") return { next: "wait" }
  return { next: "declined", reason: order.reason ?? "The payment was not made." }
}
