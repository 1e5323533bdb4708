import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import {
  buildBuildRequest,
  buildHostedOrderRequest,
  cutText,
  DEFAULT_DESCRIPTION,
  describeItems,
  fillDescription,
  fillTemplate,
  type HostedOrderInput,
} from "../card/hosted-order"
import type { CartContext } from "../cart-context"
import type { NexiOptions } from "../options"
import { parseNexiOptions } from "../options"

function options(overrides: Partial<NexiOptions> = {}): NexiOptions {
  return {
    ...parseNexiOptions({
      apiKey: "key",
      resultUrl: "https://shop.example/checkout/result?cart={cart_id}&session={session_id}",
      cancelUrl: "https://shop.example/checkout/cancel/{cart_id}/{session_id}",
      notificationUrl: "https://api.shop.example",
    }),
    ...overrides,
  }
}

function cart(overrides: Partial<CartContext> = {}): CartContext {
  return { cart_id: "cart_1", items: [], billing_address: null, shipping_address: null, ...overrides }
}

function input(overrides: Partial<HostedOrderInput> = {}): HostedOrderInput {
  return {
    orderId: "ORD123",
    sessionId: "payses_1",
    amountMinor: "1999",
    currencyCode: "eur",
    options: options(),
    ...overrides,
  }
}

describe("fillTemplate", () => {
  it("fills every occurrence of both placeholders", () => {
    expect(fillTemplate("{cart_id}-{session_id}-{cart_id}", { cart_id: "c", session_id: "s" })).toBe("c-s-c")
  })

  it("URL-encodes the values so they cannot break the URL", () => {
    expect(fillTemplate("https://x/?c={cart_id}&s={session_id}", { cart_id: "a&b=c", session_id: "x/y?z #" })).toBe(
      "https://x/?c=a%26b%3Dc&s=x%2Fy%3Fz%20%23",
    )
  })

  it("fills an unknown cart id with nothing", () => {
    expect(fillTemplate("c={cart_id};s={session_id}", { session_id: "s1" })).toBe("c=;s=s1")
  })
})

describe("buildHostedOrderRequest", () => {
  it("sets the order fields from the input", () => {
    const { order } = buildHostedOrderRequest(input({ cart: cart() }))
    expect(order.orderId).toBe("ORD123")
    expect(order.amount).toBe("1999")
    expect(order.currency).toBe("EUR")
    // The session id on the order traces it back to its session.
    expect(order.customField).toBe("payses_1")
    expect(order.description).toBe("Order at our store")
  })

  it("sets the payment session fields from the options", () => {
    const { paymentSession } = buildHostedOrderRequest(
      input({ cart: cart(), options: options({ captureType: "IMPLICIT" }) }),
    )
    expect(paymentSession).toEqual({
      actionType: "PAY",
      amount: "1999",
      captureType: "IMPLICIT",
      language: "eng",
      resultUrl: "https://shop.example/checkout/result?cart=cart_1&session=payses_1",
      cancelUrl: "https://shop.example/checkout/cancel/cart_1/payses_1",
      notificationUrl: "https://api.shop.example/hooks/payment/nexi_nexi",
    })
  })

  it("asks for the wallet's page (paymentService) on a hosted order and a Build session alike; a card sends none", () => {
    expect(buildHostedOrderRequest(input({ wallet: "GOOGLEPAY" })).paymentSession.paymentService).toBe("GOOGLEPAY")
    expect(buildBuildRequest(input({ wallet: "APPLEPAY" })).paymentSession.paymentService).toBe("APPLEPAY")
    expect(buildBuildRequest(input()).paymentSession).not.toHaveProperty("paymentService")
  })

  it("uses the default EXPLICIT capture type of the parsed options", () => {
    expect(buildHostedOrderRequest(input()).paymentSession.captureType).toBe("EXPLICIT")
  })

  it("URL-encodes the ids it fills into the result and cancel URLs", () => {
    const { paymentSession } = buildHostedOrderRequest(input({ sessionId: "s&x=1", cart: cart({ cart_id: "c/1" }) }))
    expect(paymentSession.resultUrl).toBe("https://shop.example/checkout/result?cart=c%2F1&session=s%26x%3D1")
    expect(paymentSession.cancelUrl).toBe("https://shop.example/checkout/cancel/c%2F1/s%26x%3D1")
  })

  it("sends a payment link's shopper to the link's pages, with the order and the session, never a cart's", () => {
    const { paymentSession } = buildHostedOrderRequest(
      input({
        paymentLinkOf: "order_01&x",
        options: options({
          paymentLinkResultUrl: "https://shop.example/paid?order_id={order_id}&session_id={session_id}",
          paymentLinkCancelUrl: "https://shop.example/given-up/{order_id}",
        }),
      }),
    )
    expect(paymentSession.resultUrl).toBe("https://shop.example/paid?order_id=order_01%26x&session_id=payses_1")
    expect(paymentSession.cancelUrl).toBe("https://shop.example/given-up/order_01%26x")
  })

  it("drops trailing slashes of the notification base", () => {
    const request = buildHostedOrderRequest(
      input({ options: options({ notificationUrl: "https://api.shop.example/base///" }) }),
    )
    expect(request.paymentSession.notificationUrl).toBe("https://api.shop.example/base/hooks/payment/nexi_nexi")
  })

  it("takes the language from the cart's locale when the gateway language table knows it", () => {
    expect(buildHostedOrderRequest(input({ cart: cart({ locale: "it-IT" }) })).paymentSession.language).toBe("ita")
    expect(buildHostedOrderRequest(input({ cart: cart({ locale: "de_CH" }) })).paymentSession.language).toBe("deu")
    expect(buildHostedOrderRequest(input({ cart: cart({ locale: "it-IT,it;q=0.9" }) })).paymentSession.language).toBe(
      "ita",
    )
  })

  it("falls back to the configured language for an unknown, absent or unparseable locale", () => {
    const fallback = options({ language: "fra" })
    expect(
      buildHostedOrderRequest(input({ options: fallback, cart: cart({ locale: "xx-YY" }) })).paymentSession.language,
    ).toBe("fra")
    expect(
      buildHostedOrderRequest(input({ options: fallback, cart: cart({ locale: null }) })).paymentSession.language,
    ).toBe("fra")
    expect(
      buildHostedOrderRequest(input({ options: fallback, cart: cart({ locale: "english" }) })).paymentSession.language,
    ).toBe("fra")
    expect(buildHostedOrderRequest(input({ options: fallback })).paymentSession.language).toBe("fra")
  })

  it("hands the chain (i18n/page-language.ts) the storefront's language, then the locale, then shipping and billing country", () => {
    const italy = { country_code: "it" }
    const spain = { country_code: "es" }
    const language = (overrides: Partial<HostedOrderInput>) =>
      buildHostedOrderRequest(input(overrides)).paymentSession.language
    const everyClue = cart({ locale: "de-DE", shipping_address: italy, billing_address: spain })
    expect(language({ cart: everyClue, requestedLanguage: "fr-FR" })).toBe("fra")
    expect(language({ cart: everyClue })).toBe("deu")
    expect(language({ cart: { ...everyClue, locale: null } })).toBe("ita")
    expect(language({ cart: { ...everyClue, locale: null, shipping_address: null } })).toBe("spa")
    expect(language({ requestedLanguage: "it" })).toBe("ita")
  })

  it("refuses a misconfigured fallback language", () => {
    expect(() => buildHostedOrderRequest(input({ options: options({ language: "English" }) }))).toThrow(
      /not a lower-case ISO 639-2 code/,
    )
  })

  it("without a cart: empty cart placeholders, no customer info, no customer id", () => {
    const request = buildHostedOrderRequest(input())
    expect(request.order.description).toBe("Order at our store")
    expect(request.paymentSession.resultUrl).toBe("https://shop.example/checkout/result?cart=&session=payses_1")
    expect(request.order).not.toHaveProperty("customerInfo")
    expect(request.order).not.toHaveProperty("customerId")
  })

  it("fills the description template and cuts it to 255 characters", () => {
    const long = buildHostedOrderRequest(
      input({ cart: cart(), options: options({ description: `${"x".repeat(300)}{cart_id}` }) }),
    )
    expect(long.order.description).toHaveLength(255)
    expect(long.order.description).toBe("x".repeat(255))
    const filled = buildHostedOrderRequest(
      input({
        cart: cart({ cart_id: "cart_01H" }),
        options: options({ description: "Cart {cart_id} / {session_id}" }),
      }),
    )
    expect(filled.order.description).toBe("Cart cart_01H / payses_1")
  })

  it("leaves out an empty description", () => {
    expect(buildHostedOrderRequest(input({ options: options({ description: "" }) })).order).not.toHaveProperty(
      "description",
    )
  })

  it("takes the customer id from Medusa's customer first, then the cart", () => {
    const customer = { id: "cus_medusa" } as PaymentCustomerDTO
    expect(buildHostedOrderRequest(input({ customer, cart: cart({ customer_id: "cus_cart" }) })).order.customerId).toBe(
      "cus_medusa",
    )
    expect(buildHostedOrderRequest(input({ cart: cart({ customer_id: "cus_cart" }) })).order.customerId).toBe(
      "cus_cart",
    )
  })

  it("builds customer info from the cart snapshot's addresses and e-mail", () => {
    const request = buildHostedOrderRequest(
      input({
        cart: cart({
          email: "ada@example.com",
          billing_address: {
            first_name: "Ada",
            last_name: "Lovelace",
            address_1: "Via Roma 1",
            address_2: "Scala B",
            city: "Milano",
            postal_code: "20100",
            province: "MI",
            country_code: "it",
            phone: "+39 02 1234",
          },
          shipping_address: {
            company: "ACME",
            address_1: "Rue 2",
            city: "Paris",
            postal_code: "75001",
            country_code: "fr",
          },
        }),
      }),
    )
    expect(request.order.customerInfo).toEqual({
      cardHolderName: "Ada Lovelace",
      cardHolderEmail: "ada@example.com",
      billingAddress: {
        name: "Ada Lovelace",
        street: "Via Roma 1",
        additionalInfo: "Scala B",
        city: "Milano",
        postCode: "20100",
        province: "MI",
        country: "ITA",
      },
      shippingAddress: { name: "ACME", street: "Rue 2", city: "Paris", postCode: "75001", country: "FRA" },
      mobilePhone: "+39 02 1234",
    })
  })

  it("prefers Medusa's customer for name, phone; the cart for e-mail", () => {
    const customer = {
      id: "cus_1",
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: "+1 555",
    } as PaymentCustomerDTO
    const info = buildHostedOrderRequest(
      input({
        customer,
        cart: cart({ email: "cart@example.com", billing_address: { first_name: "A", last_name: "B", phone: "+39" } }),
      }),
    ).order.customerInfo
    expect(info?.cardHolderName).toBe("Grace Hopper")
    expect(info?.cardHolderEmail).toBe("cart@example.com")
    expect(info?.mobilePhone).toBe("+1 555")
  })

  it("trims the card holder's name parts and leaves out blank ones", () => {
    const customer = {
      id: "cus_1",
      first_name: " Ada ",
      last_name: "  ",
      email: "ada@example.com",
    } as PaymentCustomerDTO
    expect(buildHostedOrderRequest(input({ customer })).order.customerInfo?.cardHolderName).toBe("Ada")
  })

  it("uses the customer's billing address and e-mail when there is no cart", () => {
    const customer = {
      id: "cus_1",
      email: "grace@example.com",
      billing_address: { first_name: "Grace", last_name: "Hopper", city: "Arlington", country_code: "us" },
    } as unknown as PaymentCustomerDTO
    const info = buildHostedOrderRequest(input({ customer })).order.customerInfo
    expect(info).toEqual({
      cardHolderName: "Grace Hopper",
      cardHolderEmail: "grace@example.com",
      billingAddress: { name: "Grace Hopper", city: "Arlington", country: "USA" },
    })
  })

  it("leaves out missing addresses, blank fields and countries the table does not know", () => {
    const info = buildHostedOrderRequest(
      input({
        cart: cart({
          email: "a@example.com",
          billing_address: { first_name: "  ", last_name: null, city: "  ", country_code: "xk" },
          shipping_address: null,
        }),
      }),
    ).order.customerInfo
    expect(info).toEqual({ cardHolderEmail: "a@example.com" })
  })

  it("leaves out customer info altogether when nothing is known", () => {
    const request = buildHostedOrderRequest(
      input({ cart: cart({ email: null, billing_address: {}, shipping_address: {} }) }),
    )
    expect(request.order).not.toHaveProperty("customerInfo")
  })

  it("trims the parts of an address", () => {
    const info = buildHostedOrderRequest(
      input({
        cart: cart({
          shipping_address: { first_name: " Ada ", last_name: " Lovelace ", city: " Milano ", country_code: " it " },
        }),
      }),
    ).order.customerInfo
    expect(info?.shippingAddress).toEqual({ name: "Ada Lovelace", city: "Milano", country: "ITA" })
  })

  it("takes the phone from the shipping address last", () => {
    const info = buildHostedOrderRequest(input({ cart: cart({ shipping_address: { phone: "+49 30" } }) })).order
      .customerInfo
    expect(info?.mobilePhone).toBe("+49 30")
  })
})

describe("the hosted page's description", () => {
  const line = (title: string | null, quantity = 1, extra: Partial<CartContext["items"][number]> = {}) => ({
    id: `item_${title}`,
    title,
    quantity,
    unit_price: 10,
    ...extra,
  })

  it("by default names the items and the store", () => {
    const request = buildHostedOrderRequest(
      input({
        cart: cart({ items: [line("T-shirt", 2), line("Mug")] }),
        options: options({ storeName: "Caffè Roma" }),
      }),
    )
    expect(request.order.description).toBe("2 × T-shirt, 1 × Mug – Caffè Roma")
    expect(options().description).toBe(DEFAULT_DESCRIPTION)
  })

  it('reads "Order at <store>" for a cart without lines, and "our store" without a store name', () => {
    expect(
      buildHostedOrderRequest(input({ cart: cart(), options: options({ storeName: "Caffè Roma" }) })).order.description,
    ).toBe("Order at Caffè Roma")
    expect(buildHostedOrderRequest(input({ cart: cart({ items: [line("Mug")] }) })).order.description).toBe(
      "1 × Mug – our store",
    )
  })

  it("validates the storeName option", () => {
    expect(
      parseNexiOptions({
        apiKey: "k",
        resultUrl: "https://s.example/r",
        cancelUrl: "https://s.example/c",
        notificationUrl: "https://a.example",
        storeName: "  Shop  ",
      }).storeName,
    ).toBe("Shop")
    expect(() =>
      parseNexiOptions({
        apiKey: "k",
        resultUrl: "https://s.example/r",
        cancelUrl: "https://s.example/c",
        notificationUrl: "https://a.example",
        storeName: " ",
      }),
    ).toThrow(/storeName: must not be empty/)
  })

  it("fills every placeholder as plain text, not URL-encoded, and only once", () => {
    const description = fillDescription("{store_name}: {items} ({cart_id}, {session_id})", {
      cart_id: "cart/1&x",
      session_id: "payses 1",
      store_name: "Bar & Caffè",
      items: [line("Tea {cart_id} & biscuits?", 3)],
    })
    expect(description).toBe("Bar & Caffè: 3 × Tea {cart_id} & biscuits? (cart/1&x, payses 1)")
  })

  it("keeps a custom template, {items} empty without lines", () => {
    expect(fillDescription("Cart {cart_id}: {items}", { cart_id: "c1", session_id: "s1", items: [] })).toBe("Cart c1: ")
  })

  it('uses the SKU, or "item", for a line without a title, and one line of text per title', () => {
    expect(
      describeItems([line(null, 1, { variant_sku: "SKU-1" }), line(null, 2), line("Two\nlines\t here ", 1)], 255),
    ).toBe("1 × SKU-1, 2 × item, 1 × Two lines here")
  })

  it("shortens the item list to fit 255 characters, saying how many lines are left out", () => {
    const items = Array.from({ length: 40 }, (_, index) => line(`Product number ${index + 1}`, index + 1))
    const description =
      buildHostedOrderRequest(input({ cart: cart({ items }), options: options({ storeName: "Shop" }) })).order
        .description ?? ""
    expect(description.length).toBeLessThanOrEqual(255)
    expect(description).toMatch(/^1 × Product number 1, 2 × Product number 2, .*, \+\d+ more – Shop$/)
    const shown = description.match(/Product number/g)?.length ?? 0
    expect(description).toContain(`+${40 - shown} more`)
  })

  it("cuts one very long title at 255 characters without splitting a character", () => {
    const title = "☕🇮🇹".repeat(200)
    const description = buildHostedOrderRequest(input({ cart: cart({ items: [line(title)] }) })).order.description ?? ""
    expect(description.length).toBeLessThanOrEqual(255)
    expect(description.length).toBeGreaterThan(250)
    // No lone surrogate, and the flag (two code points) is never split in half.
    expect(description).toBe(description.normalize())
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(description)).toBe(false)
    const segments = Array.from(
      new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(description.slice(4)),
      (s) => s.segment,
    )
    expect(segments.every((segment) => segment === "☕" || segment === "🇮🇹")).toBe(true)
  })

  it("cutText leaves short text alone and never splits a grapheme", () => {
    expect(cutText("abc", 5)).toBe("abc")
    expect(cutText("ab🇮🇹", 3)).toBe("ab")
    expect(cutText("ab🇮🇹c", 6)).toBe("ab🇮🇹")
  })
})

describe("saved cards on the hosted order", () => {
  it("carries the recurrence and the account holder's customerId instead of Medusa's customer id", () => {
    const request = buildHostedOrderRequest(
      input({
        customer: { id: "cus_1" } as PaymentCustomerDTO,
        customerRef: "nxc0123",
        recurrence: { action: "SUBSEQUENT_PAYMENT", contractId: "nxk1", contractType: "CIT" },
      }),
    )
    expect(request.order.customerId).toBe("nxc0123")
    expect(request.paymentSession.recurrence).toEqual({
      action: "SUBSEQUENT_PAYMENT",
      contractId: "nxk1",
      contractType: "CIT",
    })
    expect(request.paymentSession.actionType).toBe("PAY")
  })

  it("verifies without a capture type, and sends the shopper back to the given page either way", () => {
    const request = buildHostedOrderRequest(
      input({ amountMinor: "0", verifyReturnUrl: "https://shop.example/account" }),
    )
    expect(request.paymentSession).toMatchObject({
      actionType: "VERIFY",
      amount: "0",
      resultUrl: "https://shop.example/account",
      cancelUrl: "https://shop.example/account",
    })
    expect(request.paymentSession).not.toHaveProperty("captureType")
  })
})
