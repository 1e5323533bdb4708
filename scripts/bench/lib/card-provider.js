/**
 * The card provider (pp_nexi_nexi) built outside Medusa with its (container, options)
 * constructor, pointed at the simulator, with the gateway client it created kept in reach:
 * the bare calls of the overhead part go through that client's keep-alive agent.
 */
const { built } = require("./built")

const API_KEY = "5d952446-9004-4023-9eae-a527a152846b"

/** Provider options of a store paying on the simulator; notifications go to a closed port (the bench reads them from the simulator). */
function cardOptions(gatewayUrl, extra = {}) {
  return {
    apiKey: API_KEY,
    environment: gatewayUrl,
    notificationUrl: "http://127.0.0.1:9",
    resultUrl: "https://shop.bench/checkout/nexi/result?cart_id={cart_id}",
    cancelUrl: "https://shop.bench/checkout?step=payment&cart_id={cart_id}",
    ...extra,
  }
}

function createCardProvider(cradle, options) {
  const { NexiCardProviderService } = built("providers/nexi/card/card-provider")
  const { clientsFor } = built("core/clients")
  const { parseNexiOptions } = built("core/options")
  // The client a store entry's provider builds for itself, passed in so the bench keeps a handle on it.
  const gatewayClient = clientsFor(parseNexiOptions(options), cradle.logger).gateway
  const provider = new NexiCardProviderService(cradle, options, gatewayClient)
  return { provider, gatewayClient }
}

/**
 * The one sync of a card payment (src/core/card/card-sync.ts) over the same stand-in and client as
 * the provider: what a notification runs. Medusa's side answers what it would do (complete the
 * cart of a paid session) without running Medusa's workflow, as the provider calls leave out
 * Medusa's own work; the throughput part runs it for real.
 */
function createCardSync(cradle, gatewayClient) {
  const { CardSync } = built("core/card/card-sync")
  const { PaymentRecords } = built("core/medusa-records")
  const { cardSyncPort } = built("core/card/card-sync")
  const ledger = cradle.nexi_ledger
  const records = new PaymentRecords(cradle)
  const gateway = cardSyncPort({ gateway: gatewayClient, ledger, records })
  const medusa = {
    apply: async (_session, payment) => (payment.status === "authorized" ? "completed" : "unchanged"),
    // No shopper's checkout holds a cart here: the throughput part runs that race for real.
    checkoutCompleting: async () => false,
  }
  return new CardSync({ gateway, ledger, sessions: records, medusa, logger: cradle.logger })
}

module.exports = { API_KEY, cardOptions, createCardProvider, createCardSync }
