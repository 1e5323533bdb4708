/**
 * How a provider reaches the plugin's ledger. The provider lives in the payment module's
 * container, which holds only what that module lists in `dependencies`; a store that left
 * the line out gets a message naming it, and no money write is sent unrecorded.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { NEXI_LEDGER_MODULE, type PaymentLedger, type SavedCardBook } from "../../../modules/nexi-ledger/types"

export function ledgerFrom(cradle: Record<string, unknown>, action: string): PaymentLedger {
  let ledger: PaymentLedger | undefined
  try {
    ledger = cradle[NEXI_LEDGER_MODULE] as PaymentLedger | undefined
  } catch {
    ledger = undefined
  }
  if (!ledger) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: the Nexi ledger is not available to the payment module. Add \`dependencies: ["${NEXI_LEDGER_MODULE}"]\` to the @medusajs/medusa/payment entry in medusa-config and list the plugin under \`plugins\`, then run \`medusa db:migrate\`.`,
    )
  }
  return ledger
}

/** The saved cards live in the ledger's module: the same `dependencies` line reaches them. */
export function savedCardBookFrom(cradle: Record<string, unknown>, action: string): SavedCardBook {
  return ledgerFrom(cradle, action) as unknown as SavedCardBook
}
