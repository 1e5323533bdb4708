import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import type { CartContext } from "../cart-context"
import { buildPaymentRequest, consumerName, type PaymentRequestInput } from "../mobile/apm-requests"
import type { Purchase } from "../mobile/purchase-amounts"
import { SCHEME_WITH_LOCALE_PROPERTIES } from "../provider-ids"

function cart(overrides: Partial<CartContext> = {}): CartContext {
  return { cart_id: "cart_1", items: [], billing_address: null, shipping_address: null, ...overrides }
}

const purchase: Purchase = {
  purchaseAmount: { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 220, totalAmount: 1220 },
}

function input(overrides: Partial<PaymentRequestInput> = {}): PaymentRequestInput {
  return {
    method: "PSP_B",
    merchantId: "merchant_1",
    sessionId: "payses_1",
    consumer: { consumerId: "cus_1", name: "Ada Lovelace" },
    purchase,
    ...overrides,
  }
}

describe("consumerName", () => {
  it("takes the billing address name first", () => {
    expect(
      consumerName(
        cart({
          billing_address: { first_name: " Ada ", last_name: "Lovelace " },
          shipping_address: { first_name: "Ship" },
          email: "a@x",
        }),
        { first_name: "Grace" } as PaymentCustomerDTO,
      ),
    ).toBe("Ada Lovelace")
  })

  it("takes the billing company when the billing address has no name", () => {
    expect(
      consumerName(
        cart({ billing_address: { company: " ACME " }, shipping_address: { first_name: "Ship" } }),
        undefined,
      ),
    ).toBe("ACME")
  })

  it("then the shipping address (name, then company)", () => {
    expect(
      consumerName(
        cart({ billing_address: { first_name: "  " }, shipping_address: { last_name: "Hopper" } }),
        undefined,
      ),
    ).toBe("Hopper")
    expect(consumerName(cart({ shipping_address: { company: "Globex" } }), undefined)).toBe("Globex")
  })

  it("then the customer's name", () => {
    expect(consumerName(cart(), { first_name: "Grace", last_name: "Hopper", email: "g@x" } as PaymentCustomerDTO)).toBe(
      "Grace Hopper",
    )
    expect(consumerName(undefined, { first_name: null, last_name: "Hopper" } as unknown as PaymentCustomerDTO)).toBe(
      "Hopper",
    )
  })

  it("then the cart's e-mail, then the customer's", () => {
    expect(
      consumerName(cart({ email: " cart@example.com " }), { email: "cus@example.com" } as PaymentCustomerDTO),
    ).toBe("cart@example.com")
    expect(consumerName(cart({ email: "  " }), { email: "cus@example.com" } as PaymentCustomerDTO)).toBe(
      "cus@example.com",
    )
  })

  it("falls back to Customer, never an empty name", () => {
    expect(consumerName(undefined, undefined)).toBe("Customer")
    expect(
      consumerName(cart({ billing_address: { company: " " }, email: "" }), { email: " " } as PaymentCustomerDTO),
    ).toBe("Customer")
  })
})

describe("buildPaymentRequest", () => {
  it("sets merchant, method, amount, consumer and the session reference", () => {
    const request = buildPaymentRequest(input())
    expect(request).toEqual({
      merchantId: "merchant_1",
      method: "PSP_B",
      purchaseAmount: purchase.purchaseAmount,
      consumer: { consumerId: "cus_1", name: "Ada Lovelace" },
      ecr2Naa: { ver: "1.0", reference: "payses_1" },
    })
  })

  it("adds the language of the cart's locale and the order lines", () => {
    const order = { items: [{ name: "Mug", quantity: 1 }], amount: 1220, currency: "EUR" }
    const request = buildPaymentRequest(input({ cart: cart({ locale: "IT_it" }), purchase: { ...purchase, order } }))
    expect(request.ecr2Naa).toEqual({ ver: "1.0", reference: "payses_1", lang: "it", order })
  })

  it("takes the storefront's data.language over the request's locale, as a two-letter code", () => {
    const withLocale = cart({ locale: "de-CH", billing_address: { country_code: "it" } })
    expect(buildPaymentRequest(input({ cart: withLocale, requestedLanguage: "it-IT" })).ecr2Naa?.lang).toBe("it")
    expect(buildPaymentRequest(input({ cart: withLocale, requestedLanguage: "ita" })).ecr2Naa?.lang).toBe("it")
    const properties = buildPaymentRequest(
      input({ method: SCHEME_WITH_LOCALE_PROPERTIES, cart: withLocale, requestedLanguage: "fr" }),
    ).additionalProperties
    expect(properties).toContainEqual({ key: "lang", value: "fr" })
  })

  it("passes over a requested language that is no language tag, for the request's locale", () => {
    expect(
      buildPaymentRequest(input({ cart: cart({ locale: "de" }), requestedLanguage: "klingon" })).ecr2Naa?.lang,
    ).toBe("de")
  })

  it("leaves out a locale that does not look like a language", () => {
    expect(buildPaymentRequest(input({ cart: cart({ locale: "english" }) })).ecr2Naa).not.toHaveProperty("lang")
    expect(buildPaymentRequest(input({ cart: cart({ locale: "1t-IT" }) })).ecr2Naa).not.toHaveProperty("lang")
    expect(buildPaymentRequest(input({ cart: cart({ locale: "" }) })).ecr2Naa).not.toHaveProperty("lang")
  })

  it("sends locale properties only for the scheme that takes them", () => {
    const withLocale = cart({ locale: "de-CH", billing_address: { country_code: "ch" } })
    expect(buildPaymentRequest(input({ cart: withLocale }))).not.toHaveProperty("additionalProperties")
    expect(
      buildPaymentRequest(input({ method: SCHEME_WITH_LOCALE_PROPERTIES, cart: withLocale })).additionalProperties,
    ).toEqual([
      { key: "lang", value: "de" },
      { key: "country", value: "CH" },
    ])
  })

  it("takes the country from the shipping address when billing has none, and drops an invalid one", () => {
    const method = SCHEME_WITH_LOCALE_PROPERTIES
    expect(
      buildPaymentRequest(input({ method, cart: cart({ shipping_address: { country_code: " it " } }) }))
        .additionalProperties,
    ).toEqual([{ key: "country", value: "IT" }])
    expect(
      buildPaymentRequest(input({ method, cart: cart({ locale: "fr", billing_address: { country_code: "fra" } }) }))
        .additionalProperties,
    ).toEqual([{ key: "lang", value: "fr" }])
  })

  it("leaves out additional properties when the cart knows neither member", () => {
    const method = SCHEME_WITH_LOCALE_PROPERTIES
    expect(buildPaymentRequest(input({ method, cart: cart() }))).not.toHaveProperty("additionalProperties")
    expect(buildPaymentRequest(input({ method }))).not.toHaveProperty("additionalProperties")
  })
})
