import type { SavedCard } from "../../modules/nexi-ledger/types"
import { chargeableCard } from "../saved-card-charge"

function card(fields: Partial<SavedCard> = {}): SavedCard {
  return {
    id: "nexcard_1",
    provider_identifier: "nexi_nexi",
    customer_ref: "nxcada",
    customer_id: "cus_1",
    contract_id: "nxk1",
    gateway_ref: "G1",
    purpose: "checkout",
    contract_type: "MIT_UNSCHEDULED",
    security_token_hash: null,
    state: "active",
    circuit: "VISA",
    masked_pan: "499934******7289",
    expiry: null,
    activated_at: new Date(),
    removed_at: null,
    created_at: new Date(),
    ...fields,
  }
}

describe("chargeableCard", () => {
  it("takes the order customer's active card that allows merchant charges", () => {
    expect(chargeableCard(card(), "nexcard_1", "cus_1", "nexi_nexi").contract_id).toBe("nxk1")
  })

  it("refuses a CIT card with what staff can do instead", () => {
    expect(() => chargeableCard(card({ contract_type: "CIT" }), "nexcard_1", "cus_1", "nexi_nexi")).toThrow(
      "payment_method_id: the customer saved card nexcard_1 for paying themselves only (contract CIT), without consent to charges by the shop; nothing was charged.",
    )
  })

  it("answers an unknown card, another customer's, another provider's and a guest order's alike", () => {
    const words = "payment_method_id: there is no saved card nexcard_1 of this order's customer."
    expect(() => chargeableCard(undefined, "nexcard_1", "cus_1", "nexi_nexi")).toThrow(words)
    expect(() => chargeableCard(card(), "nexcard_1", "cus_2", "nexi_nexi")).toThrow(words)
    expect(() => chargeableCard(card(), "nexcard_1", "cus_1", "nexi_other")).toThrow(words)
    expect(() => chargeableCard(card(), "nexcard_1", null, "nexi_nexi")).toThrow(words)
  })

  it.each(["pending", "failed", "unsupported", "deleted"] as const)("refuses a %s card", (state) => {
    expect(() => chargeableCard(card({ state }), "nexcard_1", "cus_1", "nexi_nexi")).toThrow(
      `payment_method_id: the saved card nexcard_1 is ${state}, not active; it cannot be charged.`,
    )
  })
})
