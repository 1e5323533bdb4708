/**
 * The little of Medusa's payment-module container the card provider reads, owned by the
 * bench so the provider can run outside Medusa: a silent logger, and the record services
 * PaymentRecords (src/core/medusa-payments.ts) reads for a capture's
 * amount, a refund's metadata and a notification's session. They answer from memory at
 * once, so the measured overhead is the plugin's alone (in a store they are database reads
 * Medusa makes whatever the provider). The plugin's ledger is the tests' in-memory one here (test-support/): in a
 * store it is PostgreSQL rows, which the throughput part measures through Medusa itself.
 */
const { AMOUNT } = require("./card-fixtures")
const { testSupport } = require("./test-support")

const silentLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  log() {},
  activity() {},
  progress() {},
  success() {},
  failure() {},
  shouldLog: () => false,
}

function medusaStandIn() {
  const sessions = new Map()
  const captureAmounts = new Map()
  const missing = (what, id) => Promise.reject(new Error(`bench stand-in: no ${what} ${id}`))
  return {
    /** Registers what Medusa would hold for a payment session (the provider reads it on a notification). */
    addSession(session) {
      sessions.set(session.id, session)
    },
    /** Registers a capture Medusa created, with its amount in major units. */
    addCapture(id, amount) {
      captureAmounts.set(id, amount)
    },
    cradle: {
      logger: silentLogger,
      nexi_ledger: new (testSupport("in-memory-ledger").InMemoryLedger)(),
      paymentSessionService: {
        retrieve: async (id) => sessions.get(id) ?? missing("payment session", id),
      },
      // Each bench payment is captured once in full: a capture's payment holds that capture
      // alone, and a refund's holds that refund alone beside one capture of the bench's amount
      // (money by totals reads them; the refunds are far below it, as a partial refund is).
      captureService: {
        retrieve: async (id) => {
          const amount = captureAmounts.get(id)
          if (amount === undefined) return missing("capture", id)
          const capture = { id, amount, raw_amount: { value: amount, precision: 20 } }
          return { ...capture, payment: { captures: [capture] } }
        },
      },
      refundService: {
        retrieve: async (id) => ({
          id,
          metadata: null,
          payment: { refunds: [{ id, amount: 0 }], captures: [{ id: "capt_bench", amount: AMOUNT }] },
        }),
      },
    },
  }
}

module.exports = { medusaStandIn }
