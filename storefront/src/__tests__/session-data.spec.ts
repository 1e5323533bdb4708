/** Exactly the session data keys the plugin documents, and refusals that name the field. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { cardSessionData, mobileSessionData, NexiInputError } from "../session-data.js"

/** The cases the store's rule is tested against too (src/i18n/__tests__/page-language.spec.ts). */
const LANGUAGE_TAGS = JSON.parse(
  readFileSync(join(__dirname, "..", "..", "..", "test-support", "language-tags.json"), "utf8"),
) as { accepted: string[]; refused: string[]; unknownLanguage: string[] }

function refusal(build: () => unknown): { field: string; message: string } {
  try {
    build()
  } catch (error) {
    expect(error).toBeInstanceOf(NexiInputError)
    return { field: (error as NexiInputError).field, message: (error as NexiInputError).message }
  }
  throw new Error("expected a refusal")
}

describe("cardSessionData", () => {
  it("is empty for a new card", () => {
    expect(cardSessionData()).toEqual({})
    expect(cardSessionData({ saveCard: false })).toEqual({})
  })

  it("asks to save the card", () => {
    expect(cardSessionData({ saveCard: true })).toEqual({ save_card: true })
  })

  it("asks to save the card with consent to the shop's later charges", () => {
    expect(cardSessionData({ saveCard: true, allowMerchantCharges: true })).toEqual({
      save_card: true,
      allow_merchant_charges: true,
    })
    expect(cardSessionData({ saveCard: true, allowMerchantCharges: false })).toEqual({ save_card: true })
  })

  it("refuses consent to merchant charges without saving the card, or of the wrong type", () => {
    expect(refusal(() => cardSessionData({ allowMerchantCharges: true }))).toEqual({
      field: "allow_merchant_charges",
      message:
        "allow_merchant_charges: only a card being saved (save_card: true) can allow the shop to charge it later",
    })
    expect(
      refusal(() => cardSessionData({ saveCard: true, allowMerchantCharges: "on" as unknown as boolean })).field,
    ).toBe("allow_merchant_charges")
  })

  it("pays with a saved card", () => {
    expect(cardSessionData({ paymentMethodId: "nexcard_01JD2K" })).toEqual({ payment_method_id: "nexcard_01JD2K" })
  })

  it("carries the language the plugin will read", () => {
    expect(cardSessionData({ language: "it" })).toEqual({ language: "it" })
    expect(cardSessionData({ saveCard: true, language: "en-GB" })).toEqual({ save_card: true, language: "en-GB" })
  })

  it("refuses saving a card that is saved already", () => {
    expect(refusal(() => cardSessionData({ saveCard: true, paymentMethodId: "nexcard_1" }))).toEqual({
      field: "save_card",
      message: "save_card: cannot be combined with payment_method_id, whose card is saved already",
    })
  })

  it("refuses what is not a saved card's id", () => {
    for (const paymentMethodId of ["", " nexcard_1", "pm_123", "nexcard_"]) {
      expect(refusal(() => cardSessionData({ paymentMethodId }))).toEqual({
        field: "payment_method_id",
        message: "payment_method_id: must be the id of one of the customer's saved cards (nexcard_…)",
      })
    }
  })

  it("asks for the card fields in the checkout (XPay Build), with the card saved or not; the hosted page sends nothing", () => {
    expect(cardSessionData({ integration: "build" })).toEqual({ integration: "build" })
    expect(cardSessionData({ integration: "build", saveCard: true, language: "it" })).toEqual({
      integration: "build",
      save_card: true,
      language: "it",
    })
    expect(cardSessionData({ integration: "hosted", saveCard: true })).toEqual({ save_card: true })
  })

  it("refuses the card fields for a saved card, and an integration the plugin does not know", () => {
    expect(refusal(() => cardSessionData({ integration: "build", paymentMethodId: "nexcard_1" }))).toEqual({
      field: "integration",
      message:
        'integration: "build" has a new card typed in the checkout\'s fields, and a saved card (payment_method_id) pays on the hosted page: send one of the two',
    })
    expect(refusal(() => cardSessionData({ integration: "iframe" as "build" }))).toEqual({
      field: "integration",
      message: 'integration: must be "build" (the card fields in the checkout) or "hosted" (the hosted page)',
    })
  })

  it("pays with a wallet the store offers, on the hosted page or from the fields' session", () => {
    expect(cardSessionData({ wallet: "GOOGLEPAY" })).toEqual({ wallet: "GOOGLEPAY" })
    expect(cardSessionData({ wallet: "APPLEPAY", integration: "build" })).toEqual({
      wallet: "APPLEPAY",
      integration: "build",
    })
  })

  it("refuses a wallet it does not know, and one with a card saved or to save", () => {
    expect(refusal(() => cardSessionData({ wallet: "PAYPAL" as "GOOGLEPAY" }))).toEqual({
      field: "wallet",
      message: 'wallet: must be "GOOGLEPAY" or "APPLEPAY", or left out to pay by card',
    })
    expect(refusal(() => cardSessionData({ wallet: "GOOGLEPAY", saveCard: true }))).toEqual({
      field: "wallet",
      message: "wallet: pays with the card it holds, so it does not go with save_card: send one of the two",
    })
    expect(refusal(() => cardSessionData({ wallet: "APPLEPAY", paymentMethodId: "nexcard_1" })).field).toBe("wallet")
  })

  it("refuses a save_card that is not a boolean (a form's string)", () => {
    expect(refusal(() => cardSessionData({ saveCard: "on" as unknown as boolean })).field).toBe("save_card")
  })

  it.each(LANGUAGE_TAGS.refused)("refuses %p, as the store does", (language) => {
    expect(refusal(() => cardSessionData({ language }))).toEqual({
      field: "language",
      message: 'language: must be a language tag such as "it" or "en-GB"',
    })
  })

  // A well-formed tag of a language the gateway does not know: the store answers 400, the kit cannot know.
  it.each([...LANGUAGE_TAGS.accepted, ...LANGUAGE_TAGS.unknownLanguage])(
    "carries %p, a tag the store reads",
    (language) => {
      expect(cardSessionData({ language })).toEqual({ language })
      expect(mobileSessionData({ mobileNumber: "+393331234567", language }).language).toBe(language)
    },
  )
})

describe("mobileSessionData", () => {
  it("sends the number as the shopper typed it, without the punctuation", () => {
    expect(mobileSessionData({ mobileNumber: "+39 333 123-4567" })).toEqual({ consumer_id: "+393331234567" })
    expect(mobileSessionData({ mobileNumber: "(0047) 12.34.56.78" })).toEqual({ consumer_id: "004712345678" })
  })

  it("carries the language", () => {
    expect(mobileSessionData({ mobileNumber: "+4712345678", language: "nb" })).toEqual({
      consumer_id: "+4712345678",
      language: "nb",
    })
  })

  it("refuses a missing number, naming consumer_id", () => {
    for (const mobileNumber of ["", "  ", undefined as unknown as string]) {
      expect(refusal(() => mobileSessionData({ mobileNumber }))).toEqual({
        field: "consumer_id",
        message: "consumer_id: give the shopper's mobile number",
      })
    }
  })

  it("refuses what is no mobile number", () => {
    for (const mobileNumber of ["+39 333 abc", "12345", "+1234567890123456", "++391234567"]) {
      expect(refusal(() => mobileSessionData({ mobileNumber }))).toEqual({
        field: "consumer_id",
        message: "consumer_id: must be a mobile number of 6 to 15 digits, optionally starting with +",
      })
    }
  })
})
