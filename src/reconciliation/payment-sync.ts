/**
 * Builds the one sync of a store entry's payments (src/core) from the store's container: the
 * entry's gateway client (the providers' own, store-entries.ts), the plugin's ledger, Medusa's
 * payment module and the payment lock staff actions hold. The notification subscriber, the
 * job, the storefront's status route and the admin's Sync all take their sync from here.
 */
import type { IPaymentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { ApmMethod } from "../apm/schemas"
import { apmMethodOfProvider } from "../core/apm-schemes"
import { CardSync, cardSyncPort } from "../core/card/card-sync"
import { MedusaChanges, paymentRecordsOf, type SyncOutcome } from "../core/medusa-payments"
import { ApmTransactions } from "../core/mobile/apm-transactions"
import { MobileSync } from "../core/mobile/mobile-sync"
import { isCartLocked, withPaymentLock } from "../core/payment-lock"
import { storeEntryIdOf } from "../core/provider-ids"
import { gatewayClientFor, ledgerOf, requireNexiOptions } from "../core/store-entries"
import { recordPaidOrderSession } from "../staff/payment-links"

/** A notification, the job and a Sync may queue behind each other for one payment: each waits its turn. */
const RECORD_WAIT_SECONDS = 60

function loggerOf(container: MedusaContainer): Logger | undefined {
  return container.hasRegistration(ContainerRegistrationKeys.LOGGER)
    ? container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    : undefined
}

/** The one sync of a payment, whichever Nexi provider (`pp_nexi_nexi`, `pp_nexi-apm-psp-b_nexi`) it is of. */
export interface PaymentSync {
  session(sessionId: string): Promise<SyncOutcome>
  attempt(gatewayRef: string): Promise<SyncOutcome>
}

export type SyncOf = (container: MedusaContainer, providerId: string) => PaymentSync

/** What both syncs need from the store's container. */
function storeParts(container: MedusaContainer) {
  const payments = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const ledger = ledgerOf(container)
  const medusa = new MedusaChanges({
    container,
    payments,
    ledger,
    lockPayment: (paymentId, job) => withPaymentLock(container, paymentId, job, RECORD_WAIT_SECONDS),
    authorizeOrderSession: (sessionId, gatewayOrderId) => recordPaidOrderSession(container, sessionId, gatewayOrderId),
    isCartLocked: (cartId) => isCartLocked(container, cartId),
  })
  return { ledger, records: paymentRecordsOf(payments), medusa, logger: loggerOf(container) }
}

export const paymentSyncFor: SyncOf = (container, providerId) => {
  const method = apmMethodOfProvider(providerId)
  return method ? mobileSyncFor(container, providerId, method) : cardSyncFor(container, providerId)
}

/** The sync of the card payments of the entry behind `providerId` (`pp_nexi_nexi`). */
export function cardSyncFor(container: MedusaContainer, providerId: string): CardSync {
  const { ledger, records, medusa, logger } = storeParts(container)
  const gateway = cardSyncPort({
    gateway: gatewayClientFor(container, providerId),
    ledger,
    records,
    options: requireNexiOptions(container, providerId),
    entryId: storeEntryIdOf(providerId),
    providerKey: providerId.replace(/^pp_/, ""),
    logger,
  })
  return new CardSync({ gateway, ledger, sessions: records, medusa, logger })
}

/** The sync of one mobile scheme's payments of the entry behind `providerId` (`pp_nexi-apm-psp-b_nexi`). */
function mobileSyncFor(container: MedusaContainer, providerId: string, method: ApmMethod): MobileSync {
  const { ledger, records, medusa, logger } = storeParts(container)
  const service = new ApmTransactions({
    options: requireNexiOptions(container, providerId),
    method,
    ledger: () => ledger,
    rows: records,
    logger,
  })
  return new MobileSync({ service, ledger, sessions: records, medusa, providerKey: providerId.replace(/^pp_/, "") })
}
