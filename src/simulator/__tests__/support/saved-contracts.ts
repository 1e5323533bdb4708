/**
 * Contracts saved the way a shopper saves them: a hosted CONTRACT_CREATION order paid through
 * the control API (the hosted page's own code). For the specs of what is done with a contract
 * afterwards: merchant-initiated charges, deactivation, the customer's list.
 */
import type { SimulatorHarness } from "./harness"
import { CARDS } from "./test-cards"

export interface ContractOptions {
  customerId?: string
  contractType?: "CIT" | "MIT_UNSCHEDULED" | "MIT_SCHEDULED"
  card?: object
  apiKey?: string
  /** MIT_SCHEDULED: the contract's end; a year ahead when omitted. */
  contractExpiryDate?: string
}

export async function saveContract(
  harness: SimulatorHarness,
  contractId: string,
  options: ContractOptions = {},
): Promise<void> {
  const contractType = options.contractType ?? "MIT_UNSCHEDULED"
  const schedule =
    contractType === "MIT_SCHEDULED"
      ? {
          contractExpiryDate: options.contractExpiryDate ?? new Date(Date.now() + 365 * 86_400_000).toISOString(),
          contractFrequency: "30",
        }
      : {}
  const { orderId, hostedPage } = await harness.hostedOrder(
    {
      order: { customerId: options.customerId ?? "cus_alice" },
      paymentSession: { recurrence: { action: "CONTRACT_CREATION", contractId, contractType, ...schedule } },
    },
    options.apiKey,
  )
  const token = new URL(hostedPage).searchParams.get("token")
  const paid = await harness.payHosted(orderId, options.card ?? CARDS.approved, { token })
  if (paid.status !== 200 || !["AUTHORIZED", "EXECUTED"].includes(paid.body.result)) {
    throw new Error(`saving contract ${contractId} failed: ${JSON.stringify(paid.body)}`)
  }
}
