/**
 * GET /contracts/customers/{customerId} and POST /contracts/{contractId}/deactivation: what
 * the merchant sees of its customers' saved-card contracts, and ending one (a deleted saved
 * card ends its contract too). The list holds the contracts that can still be used: a
 * customer with none answers 404, as the real gateway does.
 */
import { jsonAnswer } from "../http-helpers"
import type { SimResponse } from "../http-types"
import type { GatewayCall, GatewayContext } from "./context"
import { gatewayContractView } from "./contracts"
import { notFound } from "./errors"

export function listCustomerContracts(context: GatewayContext, call: GatewayCall): SimResponse {
  const [customerId] = call.params
  const contracts = context.store
    .contractsOfCustomer(call.merchantId, customerId)
    .filter((contract) => contract.state === "active")
  if (contracts.length === 0) return notFound(`customer ${customerId} has no contracts`)
  return jsonAnswer(200, { customerId, contracts: contracts.map(gatewayContractView) })
}

/** Deactivating a deactivated contract again changes nothing and answers the same. */
export function deactivateContract(context: GatewayContext, call: GatewayCall): SimResponse {
  const [contractId] = call.params
  const contract = context.store.findContract(call.merchantId, contractId)
  if (!contract) return notFound(`contract ${contractId} not found`)
  if (contract.state === "active") {
    context.store.saveContract({ ...contract, state: "deactivated", deactivatedAt: context.clock.now().toISOString() })
  }
  return jsonAnswer(200, {})
}
