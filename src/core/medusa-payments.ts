/**
 * Medusa's own payment records, changed by the sync (the reads are medusa-records.ts): what one
 * read of a gateway order or mobile transaction means is applied to Medusa once, through
 * Medusa's own workflows and module: a paid session completes its cart (processPaymentWorkflow,
 * as Medusa's own webhook subscriber would); a declined, failed or cancelled one shows why on its
 * session; once Medusa holds the payment, what the gateway moved that Medusa lacks is recorded
 * on it (gateway-money-records.ts).
 */
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { MathBN, Modules, PaymentActions } from "@medusajs/framework/utils"
import { processPaymentWorkflowId } from "@medusajs/medusa/core-flows"
import type { PaymentLedger } from "../modules/nexi-ledger/types"
import { minorToMajorString } from "../money/amount"
import { GatewayMoneyRecords, type GatewayPayment, type MoneyRecorded, type PaymentLock } from "./gateway-money-records"
import { MedusaBookkeeping } from "./medusa-bookkeeping"
import type { SessionRecord } from "./medusa-records"
import { BUSY, isCartLocked, lockedOrBusy, withPaymentLock } from "./payment-lock"
import type { PaymentStatus } from "./session-data"
import { authorizeStaffSessionOnce, NO_LONGER_OWNED, staffChannelOfSession } from "./staff-sessions"

export type SyncOutcome =
  | "completed"
  | "marked_error"
  | "marked_canceled"
  | MoneyRecorded
  | "left_to_checkout"
  | "bookkeeping_finished"
  /** A staff session's payment on an order cancelled, or a session deleted, meanwhile: its attempt superseded, to be released. */
  | typeof NO_LONGER_OWNED

/** Runs the completion of a session unless another caller is completing it: BUSY then. */
export type CompletionLock = <T>(sessionId: string, job: () => Promise<T>) => Promise<T | typeof BUSY>

export interface MedusaChangesDeps {
  container: MedusaContainer
  payments: IPaymentModuleService
  ledger: PaymentLedger
  lockPayment: PaymentLock
  lockCompletion: CompletionLock
  /**
   * Records a paid session staff opened on an order's payment collection (a payment link's):
   * the staff pipeline's authorization, which adds the order's transactions. Such a session
   * has no cart for processPaymentWorkflow to complete.
   */
  authorizeOrderSession(sessionId: string, gatewayOrderId: string): Promise<"recorded" | typeof NO_LONGER_OWNED>
  /** Whether someone (the shopper's checkout) holds Medusa's lock of the cart right now (payment-lock.ts). */
  isCartLocked(cartId: string): Promise<boolean>
  /** Finishes Medusa's bookkeeping of rows whose workflow died (medusa-bookkeeping.ts); how many rows. */
  finishBookkeeping(sessionId: string, gatewayRef: string): Promise<number>
}

/** A notification, the job and a Sync may queue behind each other for one payment: each waits its turn. */
const RECORD_WAIT_SECONDS = 60
/** A completion under way is left to finish: the others wait no longer than this for it. */
const COMPLETION_WAIT_SECONDS = 1

/** The changes wired to the store: the payment lock staff actions hold, a link's staff pipeline, the cart's lock. */
export function medusaChangesOf(container: MedusaContainer, ledger: PaymentLedger): MedusaChanges {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const lockPayment: PaymentLock = (paymentId, job) => withPaymentLock(container, paymentId, job, RECORD_WAIT_SECONDS)
  const bookkeeping = new MedusaBookkeeping({ container, payments, ledger, lockPayment })
  return new MedusaChanges({
    container,
    payments,
    ledger,
    lockPayment,
    lockCompletion: (sessionId, job) =>
      lockedOrBusy(container, `nexi-session-completion:${sessionId}`, job, COMPLETION_WAIT_SECONDS),
    authorizeOrderSession: async (sessionId, gatewayOrderId) =>
      (await authorizeStaffSessionOnce(container, sessionId, gatewayOrderId, "The payment link was paid")) ===
      NO_LONGER_OWNED
        ? NO_LONGER_OWNED
        : "recorded",
    isCartLocked: (cartId) => isCartLocked(container, cartId),
    finishBookkeeping: (sessionId, gatewayRef) => bookkeeping.finish(sessionId, gatewayRef),
  })
}

const PAID_SESSION = new Set(["authorized", "captured"])

/**
 * Marks the session error or canceled with the reason in its data, keeping its amount and
 * currency, when `markable` accepts the status Medusa holds now (read again here); whether it did.
 */
export async function markPaymentSession(
  payments: IPaymentModuleService,
  sessionId: string,
  status: "error" | "canceled",
  reason: string | undefined,
  markable: (current: string) => boolean,
): Promise<boolean> {
  const [session] = await payments.listPaymentSessions(
    { id: sessionId },
    { select: ["id", "status", "data", "amount", "currency_code"] },
  )
  if (!session || !markable(session.status)) return false
  await payments.updatePaymentSession({
    id: session.id,
    amount: session.amount,
    currency_code: session.currency_code,
    data: { ...session.data, status, reason },
    status,
  })
  return true
}

export class MedusaChanges {
  private readonly money: GatewayMoneyRecords

  constructor(private readonly deps: MedusaChangesDeps) {
    this.money = new GatewayMoneyRecords(deps)
  }

  async apply(session: SessionRecord, payment: GatewayPayment): Promise<SyncOutcome> {
    if (PAID_SESSION.has(session.status)) {
      const recorded = await this.money.record(session.id, payment)
      const finished = await this.finishBookkeeping(session.id, payment.gatewayRef)
      return recorded === "unchanged" ? finished : recorded
    }
    switch (payment.status) {
      case "authorized":
      case "captured":
        if (staffChannelOfSession(session.data) && payment.orderId) {
          const recorded = await this.deps.authorizeOrderSession(session.id, payment.orderId)
          return recorded === NO_LONGER_OWNED ? NO_LONGER_OWNED : "completed"
        }
        return this.completeOnce(session.id, payment)
      case "error":
      case "canceled": {
        const status = payment.status
        // A late notification of an earlier attempt must not move a paid session backwards.
        const markable = (current: string) => !PAID_SESSION.has(current) && current !== status
        const marked = await markPaymentSession(this.deps.payments, session.id, status, payment.reason, markable)
        return marked ? `marked_${status}` : "unchanged"
      }
      default:
        return "unchanged"
    }
  }

  /**
   * A paid payment whose capture or refund workflow died half-way (the store killed while the
   * provider's call was out) gets the rest of Medusa's bookkeeping: the collection's totals, the
   * order's transaction, a refund's credit line. See medusa-bookkeeping.ts.
   */
  async finishBookkeeping(sessionId: string, gatewayRef: string): Promise<SyncOutcome> {
    return (await this.deps.finishBookkeeping(sessionId, gatewayRef)) ? "bookkeeping_finished" : "unchanged"
  }

  /**
   * Whether the shopper's own checkout is completing the cart of a session the gateway says is
   * paid. Medusa's processPaymentWorkflow would wait for the cart's lock, then complete a cart
   * already completed: under load, twice the work for each checkout. That checkout authorizes
   * the session itself; should it fail first, the attempt is still watched (the job, the status
   * poll) and the next read completes the cart. A cart nobody holds (abandoned) is completed at once.
   */
  async checkoutCompleting(
    session: SessionRecord,
    status: PaymentStatus,
    cartId: string | null | undefined,
  ): Promise<boolean> {
    if (!cartId || PAID_SESSION.has(session.status) || !PAID_SESSION.has(status)) return false
    return !staffChannelOfSession(session.data) && this.deps.isCartLocked(cartId)
  }

  /**
   * Copies of one notification, the job and a status poll may all find one paid session pending
   * at once. One completes it; the others leave it to that one (`left_to_checkout`) rather than
   * wait behind it for the cart's lock, which Medusa's workflow waits for 30 s and then fails.
   * Should that completion fail, the attempt is still watched and the next read completes it.
   */
  private async completeOnce(sessionId: string, payment: GatewayPayment): Promise<SyncOutcome> {
    const outcome = await this.deps.lockCompletion(sessionId, async (): Promise<SyncOutcome> => {
      const [current] = await this.deps.payments.listPaymentSessions({ id: sessionId }, { select: ["id", "status"] })
      // Completed by the caller that held the lock before.
      if (current && PAID_SESSION.has(current.status)) return "unchanged"
      return this.complete(sessionId, payment)
    })
    return outcome === BUSY ? "left_to_checkout" : outcome
  }

  /**
   * Medusa's own path for a paid session: it authorizes the session (asking the provider, which
   * reads the payment again), captures what the gateway captured, and completes the cart the
   * storefront left behind, under the cart's lock.
   */
  private async complete(sessionId: string, payment: GatewayPayment): Promise<SyncOutcome> {
    const captured = payment.status === "captured"
    const paidMinor = captured ? payment.capturedMinor : payment.authorizedMinor
    const input = {
      action: captured ? PaymentActions.SUCCESSFUL : PaymentActions.AUTHORIZED,
      data: { session_id: sessionId, amount: MathBN.convert(minorToMajorString(paidMinor, payment.currency)) },
    }
    await this.deps.container.resolve(Modules.WORKFLOW_ENGINE).run(processPaymentWorkflowId, { input })
    return "completed"
  }
}
