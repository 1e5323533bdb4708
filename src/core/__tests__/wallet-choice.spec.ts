import { MedusaError } from "@medusajs/framework/utils"
import { enabledWallet, walletOfSessionData } from "../card/wallet-choice"

function refusal(run: () => unknown): MedusaError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(MedusaError)
    expect((error as MedusaError).type).toBe(MedusaError.Types.INVALID_DATA)
    return error as MedusaError
  }
  throw new Error("the wallet was accepted")
}

describe("the wallet a card session or a payment link asks for", () => {
  it("is a wallet the store offers, or none for a card typed in", () => {
    expect(walletOfSessionData({ wallet: "APPLEPAY" }, ["GOOGLEPAY", "APPLEPAY"])).toBe("APPLEPAY")
    expect(walletOfSessionData({ save_card: true }, ["GOOGLEPAY"])).toBeUndefined()
    expect(walletOfSessionData({ wallet: null, save_card: false }, [])).toBeUndefined()
    expect(enabledWallet("GOOGLEPAY", ["GOOGLEPAY"], "wallet")).toBe("GOOGLEPAY")
  })

  it.each([
    [
      { wallet: "PAYPAL" },
      ["GOOGLEPAY"],
      /^data\.wallet: must be "GOOGLEPAY" or "APPLEPAY", or left out to pay by card$/,
    ],
    [{ wallet: ["GOOGLEPAY"] }, ["GOOGLEPAY"], /^data\.wallet: must be "GOOGLEPAY" or "APPLEPAY"/],
    [
      { wallet: "APPLEPAY" },
      ["GOOGLEPAY"],
      /^data\.wallet: this store does not offer Apple Pay \(APPLEPAY\); it offers GOOGLEPAY \(the card provider's `wallets` option\)\.$/,
    ],
    [{ wallet: "GOOGLEPAY" }, [], /^data\.wallet: this store does not offer Google Pay \(GOOGLEPAY\); it offers none/],
    [
      { wallet: "GOOGLEPAY", save_card: true },
      ["GOOGLEPAY"],
      /^data\.wallet: Google Pay pays with the card it holds, so it does not go with data\.save_card/,
    ],
    [
      { wallet: "GOOGLEPAY", payment_method_id: "nexcard_1" },
      ["GOOGLEPAY"],
      /does not go with data\.payment_method_id/,
    ],
  ] as const)("refuses %p when the store offers %p, naming the field", (data, offered, message) => {
    expect(refusal(() => walletOfSessionData(data, offered)).message).toMatch(message)
  })

  it("names the field it was given: a payment link's `wallet`", () => {
    expect(refusal(() => enabledWallet("APPLEPAY", [], "wallet")).message).toMatch(
      /^wallet: this store does not offer Apple Pay/,
    )
  })
})
