/**
 * The plugin's ledger as the admin use cases read it: through its port, so they depend on
 * what the ledger answers and not on how the module stores it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../modules/nexi-ledger/types"

export function ledgerOf(container: MedusaContainer): PaymentLedger {
  return container.resolve<PaymentLedger>(NEXI_LEDGER_MODULE)
}
