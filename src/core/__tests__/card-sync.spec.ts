/**
 * What the sync reads before it applies a gateway order to Medusa: every checkout's notification
 * finds an order that holds only its authorization, which no write of ours has reached, so the
 * order's writes are not looked up; an order with anything after its authorization, and every
 * read by the job, settles them first (src/core/card/card-sync.ts).
 */

import { InMemoryLedger } from "../../../test-support/in-memory-ledger"
import type { OrderDetails } from "../../gateway/schemas"
import { readCardOrder } from "../card/card-order"
import { hashSecurityToken } from "../card/card-sessions"
import { type CardGatewayPort, CardSync } from "../card/card-sync"
import type { GatewayPayment } from "../gateway-money-records"
import type { SyncOutcome } from "../medusa-payments"
import type { SessionRecord } from "../medusa-records"
import { op } from "./operation-builder"

const ORDER_ID = "ORD1"
const TOKEN = "token-of-the-hosted-order"

const session: SessionRecord = {
  id: "payses_1",
  status: "authorized",
  data: { order_id: ORDER_ID },
  amount: 19.99,
  currency_code: "eur",
}

function orderWith(...operations: ReturnType<typeof op>[]): OrderDetails {
  return {
    orderStatus: { order: { orderId: ORDER_ID, amount: "1999", currency: "EUR" }, authorizedAmount: "1999" },
    operations,
    paymentLinks: [],
  } as OrderDetails
}

const AUTHORIZED = orderWith(op("OP_AUTH", "AUTHORIZATION", "AUTHORIZED", 1))
const CAPTURED = orderWith(op("OP_AUTH", "AUTHORIZATION", "AUTHORIZED", 1), op("OP_CAP", "CAPTURE", "EXECUTED", 2))

async function syncOf(
  details: OrderDetails,
  {
    checkoutHoldsCart = false,
    state = "paid",
    sessionStatus = session.status,
    medusaAnswers = async (): Promise<SyncOutcome> => "unchanged",
    release = async (): Promise<"voided" | "nothing_paid"> => "nothing_paid",
    settledNow,
    sessionGone = false,
  }: {
    checkoutHoldsCart?: boolean
    state?: "open" | "paid" | "superseded"
    sessionStatus?: string
    /** What Medusa's side answers, or throws, when the read is applied (given the ledger, as its changes see it). */
    medusaAnswers?: (ledger: InMemoryLedger) => Promise<SyncOutcome>
    /** What the release of an order no live session owns does (given the ledger it marks released). */
    release?: (ledger: InMemoryLedger) => Promise<"voided" | "nothing_paid">
    /** The order once settling the writes sent one cut off before the first read. */
    settledNow?: OrderDetails
    /** Medusa holds no payment session of that id any more. */
    sessionGone?: boolean
  } = {},
) {
  const calls: string[] = []
  const errors: string[] = []
  const applied: GatewayPayment[] = []
  const ledger = new InMemoryLedger()
  await ledger.openAttempt({
    provider_identifier: "nexi",
    gateway_ref: ORDER_ID,
    amount_minor: "1999",
    currency: "EUR",
    session_id: session.id,
    cart_id: "cart_1",
    security_token_hash: hashSecurityToken(TOKEN),
    state,
  })
  const gateway: CardGatewayPort = {
    readOrder: async () => {
      calls.push("read the order")
      const now = settledNow && calls.includes("settle the writes") ? settledNow : details
      return { details: now, state: readCardOrder(now) }
    },
    settleWrites: async () => {
      calls.push("settle the writes")
      return settledNow !== undefined
    },
    release: async () => {
      calls.push("release")
      return release(ledger)
    },
    verificationNotified: async () => false,
    endCardToSave: async () => undefined,
  }
  const sync = new CardSync({
    gateway,
    ledger,
    sessions: { session: async () => (sessionGone ? undefined : { ...session, status: sessionStatus }) },
    medusa: {
      apply: async (_session, payment) => {
        calls.push("apply to Medusa")
        applied.push(payment)
        return medusaAnswers(ledger)
      },
      checkoutCompleting: async (_session, _status, cartId) => checkoutHoldsCart && cartId === "cart_1",
    },
    logger: { error: (message: string) => errors.push(message) } as never,
  })
  return { sync, calls, applied, ledger, errors }
}

function notification(orderId = ORDER_ID) {
  const body = {
    eventId: "ev_1",
    eventTime: new Date().toISOString(),
    securityToken: TOKEN,
    operation: { orderId, operationType: "AUTHORIZATION", operationResult: "AUTHORIZED", operationAmount: "1999" },
  }
  return { data: body, rawData: Buffer.from(JSON.stringify(body)), headers: {} }
}

describe("CardSync: the writes it settles before applying a read", () => {
  it("looks up no write for a notification of an order that holds only its authorization", async () => {
    const { sync, calls, applied } = await syncOf(AUTHORIZED)
    await sync.notification(notification())
    expect(calls).toEqual(["read the order", "apply to Medusa"])
    expect(applied[0]).toMatchObject({ status: "authorized", orderId: ORDER_ID })
  })

  it("settles the order's writes first when the notified order has an operation after its authorization", async () => {
    const { sync, calls } = await syncOf(CAPTURED)
    await sync.notification(notification())
    expect(calls).toEqual(["read the order", "settle the writes", "apply to Medusa"])
  })

  it("settles the order's writes first when the job reads it, even one that holds only its authorization", async () => {
    const { sync, calls } = await syncOf(AUTHORIZED)
    await sync.attempt(ORDER_ID)
    expect(calls).toEqual(["read the order", "settle the writes", "apply to Medusa"])
  })

  it("settles the order's writes first when staff's Sync or the status poll reads the session", async () => {
    const { sync, calls } = await syncOf(AUTHORIZED)
    await sync.session(session.id)
    expect(calls).toEqual(["read the order", "settle the writes", "apply to Medusa"])
  })
})

describe("CardSync: a write sent while the writes are settled", () => {
  it("reads the order again, so Medusa is brought to the order with that write", async () => {
    const refunded = orderWith(
      ...CAPTURED.operations,
      op("OP_REF", "REFUND", "REFUNDED", 3, { operationAmount: "500", cancelledOperationId: "OP_CAP" }),
    )
    const { sync, calls, applied } = await syncOf(CAPTURED, { settledNow: refunded })
    await sync.session(session.id)
    expect(calls).toEqual(["read the order", "settle the writes", "read the order", "apply to Medusa"])
    expect(applied[0].refunds).toEqual([expect.objectContaining({ operationId: "OP_REF", amountMinor: "500" })])
  })
})

describe("CardSync: a paid order whose cart the shopper's checkout is completing", () => {
  const pendingSyncOf = (checkoutHoldsCart: boolean, medusaAnswers?: () => Promise<SyncOutcome>) =>
    syncOf(AUTHORIZED, { checkoutHoldsCart, state: "open", sessionStatus: "pending", medusaAnswers })

  it("leaves the cart to that checkout: Medusa is not asked to complete it, and the attempt stays watched", async () => {
    const { sync, calls, ledger } = await pendingSyncOf(true)
    await expect(sync.notification(notification())).resolves.toBe("left_to_checkout")
    expect(calls).toEqual(["read the order"])
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "open" })
  })

  it("completes the cart when nobody holds it (an abandoned checkout)", async () => {
    const { sync, calls, ledger } = await pendingSyncOf(false)
    await sync.notification(notification())
    expect(calls).toEqual(["read the order", "apply to Medusa"])
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({
      state: "paid",
      checks: 0,
      next_check_at: expect.any(Date),
    })
  })

  it("keeps the attempt watched when completing the cart fails: the next read completes it", async () => {
    const { sync, ledger } = await pendingSyncOf(false, async () => {
      throw new Error("Failed to acquire lock for key cart_1")
    })
    await expect(sync.notification(notification())).rejects.toThrow("Failed to acquire lock")
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "open" })
  })

  it("keeps the attempt watched while another caller completes the cart", async () => {
    const { sync, ledger } = await pendingSyncOf(false, async () => "left_to_checkout")
    await expect(sync.attempt(ORDER_ID)).resolves.toBe("left_to_checkout")
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "open" })
  })
})

describe("CardSync: a payment no live session owns", () => {
  it("gives back nothing of a payment Medusa took in whose session is gone, and says so", async () => {
    const { sync, calls, ledger, errors } = await syncOf(CAPTURED, { state: "paid", sessionGone: true })
    await expect(sync.attempt(ORDER_ID)).resolves.toBe("unchanged")
    await expect(sync.notification(notification())).resolves.toBe("unchanged")
    expect(calls).not.toContain("release")
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "paid" })
    expect(errors).toEqual([
      expect.stringMatching(/gateway order ORD1 is paid and Medusa took the payment in, .*nothing was given back/),
      expect.stringMatching(/gateway order ORD1 is paid/),
    ])
  })

  it("releases a link's payment whose order was cancelled meanwhile, instead of marking its attempt paid", async () => {
    const { sync, calls, ledger } = await syncOf(AUTHORIZED, {
      state: "open",
      sessionStatus: "pending_authorization",
      // As authorizeStaffSessionOnce answers for a collection Medusa cancelled with its order.
      medusaAnswers: async (book) => {
        await book.supersedeAttempts(session.id, undefined, "an order cancelled meanwhile")
        return "no_longer_owned"
      },
      release: async (book) => {
        await book.updateAttempt(ORDER_ID, { state: "released", next_check_at: null })
        return "voided"
      },
    })
    await sync.attempt(ORDER_ID)
    expect(calls).toEqual(["read the order", "settle the writes", "apply to Medusa", "settle the writes", "release"])
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "released" })
  })

  it("releases a link's payment whose session staff replaced while its notification was handled", async () => {
    const { sync, calls, ledger } = await syncOf(AUTHORIZED, {
      state: "open",
      sessionStatus: "pending_authorization",
      // As authorizeStaffSessionOnce answers when the session was deleted (a MOTO payment took its place).
      medusaAnswers: async (book) => {
        await book.supersedeAttempts(session.id, undefined, "a payment session replaced meanwhile")
        return "no_longer_owned"
      },
      release: async (book) => {
        await book.updateAttempt(ORDER_ID, { state: "released", next_check_at: null })
        return "voided"
      },
    })
    await expect(sync.notification(notification())).resolves.toBe("unchanged")
    expect(calls).toEqual(["read the order", "apply to Medusa", "settle the writes", "release"])
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "released" })
  })

  it("leaves released an attempt a copy of the notification released while this one read the voided order", async () => {
    const { sync, ledger } = await syncOf(AUTHORIZED, {
      state: "superseded",
      // The other copy voided and released it: this read finds nothing paid.
      release: async (book) => {
        await book.updateAttempt(ORDER_ID, { state: "released", next_check_at: null })
        return "nothing_paid"
      },
    })
    await sync.attempt(ORDER_ID)
    expect(await ledger.findAttempt(ORDER_ID)).toMatchObject({ state: "released" })
  })
})
