/**
 * GET /store/nexi/payment-sessions/:id?cart_id=<cart id>: what the storefront polls while the
 * shopper pays (on the hosted page or in their mobile payment app). A pending session of a
 * Nexi provider is re-read from the service and applied at once, the same way the
 * reconciliation job does, so an approval completes the cart without waiting for the job.
 * Answers:
 *   { payment_session: { id, status, provider_id, data: { reason, transaction_id?, hosted_page?,
 *     approval_url? } }, cart_completed, order_id? }
 *
 * Only the session's own cart may ask: without `cart_id`, or with another cart's, the answer
 * is the same 404 as for a session that does not exist, so a session id alone reveals nothing.
 * The service is read at most once per session every few seconds in this process
 * (read-throttle.ts); polls in between answer from what the last read stored.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { cartOfCollection } from "../../../../../core/cart-context"
import { isNexiProviderId } from "../../../../../core/provider-ids"
import { reconcileSession } from "../../../../../reconciliation/reconcile-pending-sessions"
import { ReadThrottle } from "../../../../utils/read-throttle"

interface SessionRow {
  id: string
  status: string
  provider_id: string
  payment_collection_id: string
  data: Record<string, unknown> | null
}

/** Only what a storefront needs to show; the rest of the session data stays on the server. */
const VISIBLE_DATA = ["reason", "transaction_id", "hosted_page", "approval_url"] as const

/** How often one session's payment may be read from the service, whatever the polling. */
const SESSION_READ_INTERVAL_MS = 3_000

const sessionReads = new ReadThrottle({ intervalMs: SESSION_READ_INTERVAL_MS, maxKeys: 10_000 })

/** One answer for every session the caller may not see, existing or not. */
function notFound(): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session not found")
}

async function readSession(container: MedusaContainer, id: string): Promise<SessionRow | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "provider_id", "payment_collection_id", "data"],
    filters: { id },
  })
  return data[0] as SessionRow | undefined
}

async function orderOf(container: MedusaContainer, cartId: string): Promise<string | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: orders } = await query.graph({
    entity: "order_cart",
    fields: ["order_id"],
    filters: { cart_id: cartId },
  })
  return orders[0]?.order_id ?? undefined
}

function visibleData(data: Record<string, unknown> | null): Record<string, unknown> {
  const visible: Record<string, unknown> = { reason: data?.reason ?? null }
  for (const key of VISIBLE_DATA) if (data?.[key] !== undefined && data[key] !== null) visible[key] = data[key]
  return visible
}

function queryCartId(req: MedusaRequest): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.cart_id
  return typeof value === "string" && value ? value : undefined
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const id = req.params.id
  if (typeof id !== "string" || !id.startsWith("payses_")) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "id: must be a payment session id (starting with payses_)")
  }
  const cartId = queryCartId(req)
  if (!cartId) throw notFound()
  let session = await readSession(req.scope, id)
  if (!session || !isNexiProviderId(session.provider_id)) throw notFound()
  if ((await cartOfCollection(req.scope, session.payment_collection_id)) !== cartId) throw notFound()
  if (session.status === "pending") {
    const pending = session
    try {
      const outcome = await sessionReads.run(id, async () => {
        await reconcileSession(req.scope, pending)
      })
      if (outcome !== "skipped") session = (await readSession(req.scope, id)) ?? session
    } catch (error) {
      // The service being unreachable is no reason to fail the poll: the storefront asks again.
      req.scope.resolve("logger").warn(`nexi: could not re-read payment session ${id}: ${(error as Error).message}`)
    }
  }
  const orderId = await orderOf(req.scope, cartId)
  res.json({
    payment_session: {
      id: session.id,
      status: session.status,
      provider_id: session.provider_id,
      data: visibleData(session.data),
    },
    cart_completed: Boolean(orderId),
    ...(orderId ? { order_id: orderId } : {}),
  })
}
