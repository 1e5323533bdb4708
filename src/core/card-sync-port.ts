/**
 * The card gateway of one store entry as the one sync (src/core/card-sync.ts) reads and writes
 * it: one read of an order through the read model, the sender's settling of lost answers, the
 * release of money no order owns, and the saved cards' side of a notification.
 */
import type { Logger } from "@medusajs/framework/types"
import type { GatewayClient } from "../gateway/gateway-client"
import { NotFoundError } from "../http/errors"
import type { PaymentLedger, SavedCardBook } from "../modules/nexi-ledger/types"
import { SAVE_CARD_KEY, saveCardOfPayment } from "./card-on-file"
import { readCardOrder } from "./card-order"
import type { CardGatewayPort, CardOrderRead } from "./card-sync"
import { CardWallet } from "./card-wallet"
import { settledWritesOf } from "./ledgered-writes"
import type { NexiOptions } from "./options"
import type { PaymentRecords } from "./payment-records"
import { releaseUnowned } from "./release-unowned"

export interface CardSyncPortDeps {
  gateway: GatewayClient
  ledger: PaymentLedger
  records: Pick<PaymentRecords, "holdsRowOf">
  options: NexiOptions
  entryId: string
  /** The provider as Medusa's webhook route names it (`nexi_nexi`). */
  providerKey: string
  logger?: Logger
}

const ACTION = "sync the payment"

export function cardSyncPort(deps: CardSyncPortDeps): CardGatewayPort {
  const { gateway, ledger, logger } = deps
  const book = ledger as unknown as SavedCardBook
  const context = { gateway, ledger, action: ACTION, records: deps.records, logger }
  const wallet = new CardWallet({
    gateway,
    book: () => book,
    options: deps.options,
    entryId: deps.entryId,
    providerKey: deps.providerKey,
    logger,
  })

  /** 404 means "no such order" (nothing to do); an unreachable gateway throws, so the caller tries again. */
  async function readOrder(orderId: string): Promise<CardOrderRead | undefined> {
    try {
      const details = await gateway.getOrder(orderId)
      return { details, state: readCardOrder(details) }
    } catch (error) {
      if (error instanceof NotFoundError) return undefined
      throw error
    }
  }

  return {
    readOrder,
    settleWrites: async (orderId) => {
      await settledWritesOf(context, orderId)
    },
    release: (attempt, read, why) => releaseUnowned(context, attempt, read.details, why, logger),
    verificationNotified: (orderId, securityToken) =>
      wallet.handleVerificationNotification(orderId, securityToken, async () => (await readOrder(orderId))?.details),
    endCardToSave: async (session, orderId, state) => {
      // The state is the one readOrder made above: the read model's whole state.
      if (session.data[SAVE_CARD_KEY] === true) await saveCardOfPayment(book, gateway, orderId, state, logger)
    },
  }
}
