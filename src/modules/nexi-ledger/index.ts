/**
 * The plugin's ledger of what it asked the gateways to do (docs/ledger.md). Registered by the
 * plugin entry (`plugins: [{ resolve: "medusa-payment-nexi" }]`); the payment module reaches
 * it through `dependencies: ["nexi_ledger"]`.
 */
import { Module } from "@medusajs/framework/utils"
import { NexiLedgerService } from "./service"
import { NEXI_LEDGER_MODULE } from "./types"

export default Module(NEXI_LEDGER_MODULE, { service: NexiLedgerService })
