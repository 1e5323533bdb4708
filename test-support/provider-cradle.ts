/**
 * The cradle a Nexi provider gets from the payment module, for unit tests without a Medusa
 * app: the plugin's ledger in memory (a boundary we own), and stand-ins for the three Medusa
 * record services PaymentRecords reads, holding only what a test puts in them. The
 * integration suites run both for real on PostgreSQL.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { NEXI_LEDGER_MODULE } from "../src/modules/nexi-ledger/types"
import { InMemoryLedger } from "./in-memory-ledger"

type Row = Record<string, unknown>

/**
 * A capture or refund a test stored without its payment is alone in its payment: read with
 * its payment's rows (as money by totals does), it is the only one, and its payment has no
 * rows of the other kind (a refund there has no captures to leave room, so the provider reads
 * the gateway before it). A test that needs more stores the payment with the row.
 */
function recordService(rows: Map<string, Row>, siblings?: "captures" | "refunds") {
  return {
    async retrieve(id: string): Promise<Row> {
      const row = rows.get(id)
      if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `no record ${id}`)
      return siblings && !("payment" in row)
        ? { ...row, payment: { captures: [], refunds: [], [siblings]: [row] } }
        : row
    },
  }
}

export interface TestCradle extends Record<string, unknown> {
  ledger: InMemoryLedger
  captures: Map<string, Row>
  refunds: Map<string, Row>
  sessions: Map<string, Row>
}

export function testCradle(): TestCradle {
  const ledger = new InMemoryLedger()
  const captures = new Map<string, Row>()
  const refunds = new Map<string, Row>()
  const sessions = new Map<string, Row>()
  return {
    ledger,
    captures,
    refunds,
    sessions,
    [NEXI_LEDGER_MODULE]: ledger,
    captureService: recordService(captures, "captures"),
    refundService: recordService(refunds, "refunds"),
    paymentSessionService: recordService(sessions),
  }
}
