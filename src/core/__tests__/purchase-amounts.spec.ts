import BigNumber from "bignumber.js"
import type { ApmAmount, OrderItem } from "../../apm/schemas"
import type { CartContext, CartLine } from "../cart-context"
import { buildPurchase, refundPurchaseAmount, roundPreservingSum } from "../mobile/purchase-amounts"

function line(overrides: Partial<CartLine> & { id: string }): CartLine {
  return { quantity: 1, unit_price: 0, ...overrides }
}

function cart(overrides: Partial<CartContext>): CartContext {
  return { cart_id: "cart_1", items: [], billing_address: null, shipping_address: null, ...overrides }
}

/** The sums the service and the simulator check, for every purchase built here. */
function expectConsistent(purchaseAmount: ApmAmount, items: OrderItem[] = []) {
  expect(purchaseAmount.nominalAmount + purchaseAmount.vatAmount).toBe(purchaseAmount.totalAmount)
  for (const item of items) expect(item.netTotalAmount! + item.taxAmount!).toBe(item.grossTotalAmount)
}

describe("buildPurchase", () => {
  it("splits a tax-exclusive cart with shipping into nominal and VAT, one line per item plus shipping", () => {
    const { purchaseAmount, order } = buildPurchase({
      totalMinor: "3050",
      currencyCode: "eur",
      cart: cart({
        total: 30.5,
        tax_total: 5.5,
        shipping_total: 6.1,
        shipping_tax_total: 1.1,
        items: [
          line({
            id: "item_1",
            title: "Cup",
            variant_sku: "CUP-1",
            quantity: 2,
            unit_price: 10,
            subtotal: 20,
            tax_total: 4.4,
            total: 24.4,
            tax_rate: 22,
          }),
        ],
      }),
    })
    expect(purchaseAmount).toEqual({ currencyCode: "EUR", nominalAmount: 2500, vatAmount: 550, totalAmount: 3050 })
    expect(order).toEqual({
      items: [
        {
          itemNo: "CUP-1",
          reference: "item_1",
          name: "Cup",
          quantity: 2,
          unitPrice: 1000,
          taxRate: 2200,
          taxAmount: 440,
          grossTotalAmount: 2440,
          netTotalAmount: 2000,
        },
        {
          reference: "shipping",
          name: "Shipping",
          quantity: 1,
          unitPrice: 500,
          taxRate: 2200,
          taxAmount: 110,
          grossTotalAmount: 610,
          netTotalAmount: 500,
        },
      ],
      amount: 3050,
      currency: "EUR",
      reference: "cart_1",
    })
    expectConsistent(purchaseAmount, order?.items)
  })

  it("gives the unit price without tax for tax-inclusive prices", () => {
    const { purchaseAmount, order } = buildPurchase({
      totalMinor: "3660",
      currencyCode: "EUR",
      cart: cart({
        total: 36.6,
        tax_total: 6.6,
        items: [
          line({
            id: "item_1",
            quantity: 3,
            unit_price: 12.2,
            is_tax_inclusive: true,
            total: 36.6,
            tax_total: 6.6,
            tax_rate: 22,
          }),
        ],
      }),
    })
    expect(purchaseAmount).toEqual({ currencyCode: "EUR", nominalAmount: 3000, vatAmount: 660, totalAmount: 3660 })
    expect(order?.items?.[0]).toMatchObject({
      unitPrice: 1000,
      taxRate: 2200,
      taxAmount: 660,
      grossTotalAmount: 3660,
      netTotalAmount: 3000,
    })
  })

  it("works from unit prices and rates when the snapshot has no line totals, inclusive or not", () => {
    const { order } = buildPurchase({
      totalMinor: "6100",
      currencyCode: "EUR",
      cart: cart({
        items: [
          line({ id: "inclusive", quantity: 3, unit_price: "12.20", is_tax_inclusive: true, tax_rate: 22 }),
          line({ id: "exclusive", quantity: 2, unit_price: "10", is_tax_inclusive: false, tax_rate: 22 }),
        ],
      }),
    })
    expect(order?.items).toEqual([
      expect.objectContaining({
        reference: "inclusive",
        unitPrice: 1000,
        taxAmount: 660,
        grossTotalAmount: 3660,
        netTotalAmount: 3000,
      }),
      expect.objectContaining({
        reference: "exclusive",
        unitPrice: 1000,
        taxAmount: 440,
        grossTotalAmount: 2440,
        netTotalAmount: 2000,
      }),
    ])
    expect(order?.amount).toBe(6100)
  })

  it("hands out rounding remainders so the lines' tax adds up to the purchase VAT exactly", () => {
    // Three lines taxed a third of a euro each: rounding each alone gives 0.33 three times, a cent short.
    const third = new BigNumber(1).div(3).toFixed(20)
    const items = ["a", "b", "c"].map((id) =>
      line({ id, quantity: 1, unit_price: 1.5, total: 1.5, tax_total: third, tax_rate: 28.5714 }),
    )
    const { purchaseAmount, order } = buildPurchase({
      totalMinor: "450",
      currencyCode: "EUR",
      cart: cart({ total: 4.5, tax_total: 1, items }),
    })
    expect(purchaseAmount).toEqual({ currencyCode: "EUR", nominalAmount: 350, vatAmount: 100, totalAmount: 450 })
    expect(order?.items?.map((item) => item.taxAmount)).toEqual([34, 33, 33])
    expect(order?.items?.reduce((sum, item) => sum + item.taxAmount!, 0)).toBe(purchaseAmount.vatAmount)
    expect(order?.items?.reduce((sum, item) => sum + item.grossTotalAmount!, 0)).toBe(purchaseAmount.totalAmount)
    expectConsistent(purchaseAmount, order?.items)
  })

  it("rounds a unit price that does not divide the line evenly, keeping the line totals exact", () => {
    const { order } = buildPurchase({
      totalMinor: "1000",
      currencyCode: "EUR",
      cart: cart({
        total: 10,
        tax_total: 0,
        items: [line({ id: "item_1", quantity: 3, unit_price: 3.3333, total: 10, tax_total: 0, tax_rate: 0 })],
      }),
    })
    expect(order?.items?.[0]).toMatchObject({
      unitPrice: 333,
      netTotalAmount: 1000,
      grossTotalAmount: 1000,
      taxRate: 0,
    })
  })

  it("uses whole yen for a currency without decimals", () => {
    const { purchaseAmount, order } = buildPurchase({
      totalMinor: "1100",
      currencyCode: "jpy",
      cart: cart({
        total: 1100,
        tax_total: 100,
        items: [line({ id: "item_1", quantity: 1, unit_price: 1000, total: 1100, tax_total: 100, tax_rate: 10 })],
      }),
    })
    expect(purchaseAmount).toEqual({ currencyCode: "JPY", nominalAmount: 1000, vatAmount: 100, totalAmount: 1100 })
    expect(order?.items?.[0]).toMatchObject({ unitPrice: 1000, taxRate: 1000, taxAmount: 100, grossTotalAmount: 1100 })
  })

  it("gives a session for part of the cart the cart's VAT proportion", () => {
    const { purchaseAmount } = buildPurchase({
      totalMinor: "1525",
      currencyCode: "EUR",
      cart: cart({ total: 30.5, tax_total: 5.5 }),
    })
    expect(purchaseAmount).toEqual({ currencyCode: "EUR", nominalAmount: 1250, vatAmount: 275, totalAmount: 1525 })
  })

  it("sends VAT 0 and no lines without a cart snapshot", () => {
    expect(buildPurchase({ totalMinor: "1999", currencyCode: "SEK" })).toEqual({
      purchaseAmount: { currencyCode: "SEK", nominalAmount: 1999, vatAmount: 0, totalAmount: 1999 },
    })
  })

  it("leaves the shipping line out when shipping is free", () => {
    const { order } = buildPurchase({
      totalMinor: "1220",
      currencyCode: "EUR",
      cart: cart({
        total: 12.2,
        tax_total: 2.2,
        shipping_total: 0,
        shipping_tax_total: 0,
        items: [line({ id: "i", unit_price: 10, total: 12.2, tax_total: 2.2, tax_rate: 22 })],
      }),
    })
    expect(order?.items?.map((item) => item.reference)).toEqual(["i"])
  })
})

describe("roundPreservingSum", () => {
  it("rounds each value so the rounded values add up to the rounded total", () => {
    const values = ["0.5", "0.5", "0.5", "0.5"].map((value) => new BigNumber(value))
    expect(roundPreservingSum(values)).toEqual([1n, 1n, 0n, 0n])
  })

  it("gives the missing units to the values that lost the most", () => {
    const values = ["10.2", "20.7", "30.6"].map((value) => new BigNumber(value))
    expect(roundPreservingSum(values)).toEqual([10n, 21n, 31n])
  })

  it("keeps whole values as they are", () => {
    expect(roundPreservingSum([new BigNumber(5), new BigNumber(7)])).toEqual([5n, 7n])
  })
})

describe("refundPurchaseAmount", () => {
  const original: ApmAmount = { currencyCode: "EUR", nominalAmount: 10000, vatAmount: 2200, totalAmount: 12200 }

  it("splits a refund in the payment's proportion of VAT", () => {
    const refund = refundPurchaseAmount({
      refundMinor: 6100n,
      original,
      refundedBefore: { totalMinor: 0n, vatMinor: 0n },
    })
    expect(refund).toEqual({ currencyCode: "EUR", nominalAmount: 5000, vatAmount: 1100, totalAmount: 6100 })
  })

  it("makes repeated partial refunds add up to the payment's VAT exactly", () => {
    let refundedBefore = { totalMinor: 0n, vatMinor: 0n }
    const vats: number[] = []
    for (const part of [3333n, 3333n, 3333n, 2201n]) {
      const refund = refundPurchaseAmount({ refundMinor: part, original, refundedBefore })
      expect(refund.nominalAmount + refund.vatAmount).toBe(refund.totalAmount)
      vats.push(refund.vatAmount)
      refundedBefore = {
        totalMinor: refundedBefore.totalMinor + part,
        vatMinor: refundedBefore.vatMinor + BigInt(refund.vatAmount),
      }
    }
    expect(refundedBefore.totalMinor).toBe(12200n)
    expect(vats.reduce((sum, vat) => sum + vat, 0)).toBe(2200)
    expect(vats).toEqual([601, 601, 601, 397])
  })

  it("refunds no VAT of a payment that had none", () => {
    const noVat: ApmAmount = { currencyCode: "SEK", nominalAmount: 500, vatAmount: 0, totalAmount: 500 }
    expect(
      refundPurchaseAmount({ refundMinor: 200n, original: noVat, refundedBefore: { totalMinor: 0n, vatMinor: 0n } })
        .vatAmount,
    ).toBe(0)
  })
})
