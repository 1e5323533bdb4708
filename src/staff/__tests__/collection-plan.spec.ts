import {
  type CollectionRow,
  type OwingOrderRow,
  owedNow,
  planCollection,
  resumableSession,
  smallerAmountMinor,
} from "../collection-plan"

const planMoto = (order: OwingOrderRow, field: "draft_order_id" | "order_id") =>
  planCollection(order, field, "MOTO payment")

function order(fields: Partial<OwingOrderRow> = {}): OwingOrderRow {
  return {
    id: "order_1",
    display_id: 12,
    status: "pending",
    is_draft_order: false,
    currency_code: "eur",
    pending_difference: 39.98,
    payment_collections: [],
    ...fields,
  }
}

function collection(status: string, fields: Partial<CollectionRow> = {}): CollectionRow {
  return { id: `paycol_${status}`, status, amount: 39.98, currency_code: "eur", payment_sessions: [], ...fields }
}

describe("owedNow", () => {
  it("is what the plan would collect: the unpaid collection's amount, else the pending difference", () => {
    const edited = order({ payment_collections: [collection("completed"), collection("not_paid", { amount: 12.5 })] })
    expect(owedNow(edited, "payment link")).toEqual({ owed: { amount: "12.50", currency: "EUR" }, refusal: null })
    expect(owedNow(order({ pending_difference: "7.1" }), "payment link")).toEqual({
      owed: { amount: "7.10", currency: "EUR" },
      refusal: null,
    })
    const draft = order({ is_draft_order: true, status: "draft" })
    expect(owedNow(draft, "payment link").owed).toEqual({ amount: "39.98", currency: "EUR" })
  })

  it("is nothing for an order already paid (an authorization counts), with the plan's refusal naming it by number", () => {
    expect(owedNow(order({ payment_collections: [collection("authorized")] }), "payment link")).toEqual({
      owed: null,
      refusal:
        "Order #12 is already paid (its payment is authorized); a payment link would charge the customer twice. Capture or refund the existing payment instead.",
    })
  })
})

describe("planCollection", () => {
  it("pays a draft order's total through Medusa's collection workflow, even over an earlier unpaid collection", () => {
    expect(planMoto(order({ is_draft_order: true, status: "draft" }), "draft_order_id")).toEqual({
      collection: "prepare",
      isDraft: true,
    })
    const edited = order({ is_draft_order: true, status: "draft", payment_collections: [collection("not_paid")] })
    expect(planMoto(edited, "draft_order_id")).toEqual({ collection: "prepare", isDraft: true })
  })

  it("pays an order's unpaid collection as it is, also beside a paid one (an order edit's difference)", () => {
    expect(planMoto(order({ payment_collections: [collection("awaiting")] }), "order_id")).toEqual({
      collection: "use",
      isDraft: false,
      collectionId: "paycol_awaiting",
    })
    const edited = order({ payment_collections: [collection("completed"), collection("not_paid")] })
    expect(planMoto(edited, "order_id")).toMatchObject({ collection: "use", collectionId: "paycol_not_paid" })
  })

  it("creates a collection for an order that has none but owes money", () => {
    expect(planMoto(order({ payment_collections: [collection("canceled")] }), "order_id")).toEqual({
      collection: "prepare",
      isDraft: false,
    })
  })

  it.each(["authorized", "partially_authorized", "partially_captured", "completed"])(
    "refuses an order already paid (%s)",
    (status) => {
      expect(() => planMoto(order({ payment_collections: [collection(status)] }), "order_id")).toThrow(
        `Order #12 is already paid (its payment is ${status.replaceAll("_", " ")}); a MOTO payment would charge the customer twice.`,
      )
    },
  )

  it("refuses a draft that was already paid, whatever else it has", () => {
    const paidDraft = order({
      is_draft_order: true,
      status: "draft",
      payment_collections: [collection("authorized"), collection("not_paid")],
    })
    expect(() => planMoto(paidDraft, "draft_order_id")).toThrow(/^Draft order #12 is already paid/)
  })

  it("refuses an order that owes nothing, and a canceled one", () => {
    expect(() => planMoto(order({ pending_difference: 0 }), "order_id")).toThrow("Order #12 has nothing left to pay")
    expect(() => planMoto(order({ status: "canceled" }), "order_id")).toThrow(
      "Order #12 is canceled: there is nothing to pay.",
    )
    // An order without a number (none reaches staff in Medusa 2.21, but the type allows it) is named by its id.
    expect(() => planMoto(order({ display_id: null, status: "archived" }), "order_id")).toThrow(
      "Order order_1 is archived: there is nothing to pay.",
    )
  })

  it("refuses an id sent as the wrong kind, naming the field", () => {
    expect(() => planMoto(order(), "draft_order_id")).toThrow(
      "draft_order_id: order_1 is an order, not a draft order; send it as order_id",
    )
    expect(() => planMoto(order({ is_draft_order: true, status: "draft" }), "order_id")).toThrow(
      "order_id: order_1 is a draft order; send it as draft_order_id",
    )
  })
})

describe("resumableSession", () => {
  const moto = (id: string, status: string, amount_minor = "3998", provider_id = "pp_nexi_nexi") => ({
    id,
    provider_id,
    status,
    data: { moto: true, amount_minor, order_id: `G${id}` },
  })

  it("resumes the waiting MOTO session of the same amount only", () => {
    const sessions = [
      moto("a", "error"),
      moto("b", "pending_authorization", "1000"),
      moto("c", "pending_authorization"),
    ]
    expect(
      resumableSession(collection("not_paid", { payment_sessions: sessions }), "pp_nexi_nexi", "3998", "moto")?.id,
    ).toBe("c")
    expect(
      resumableSession(collection("not_paid", { payment_sessions: sessions }), "pp_nexi_nexi", "5000", "moto"),
    ).toBeUndefined()
  })

  it("resumes a session of its own channel only, reading older MOTO sessions as the moto channel", () => {
    const mit = { ...moto("m", "pending_authorization"), data: { staff_channel: "mit", amount_minor: "3998" } }
    const sessions = collection("not_paid", { payment_sessions: [mit, moto("c", "pending_authorization")] })
    expect(resumableSession(sessions, "pp_nexi_nexi", "3998", "mit")?.id).toBe("m")
    expect(resumableSession(sessions, "pp_nexi_nexi", "3998", "moto")?.id).toBe("c")
    expect(resumableSession(sessions, "pp_nexi_nexi", "3998", "payment_link")).toBeUndefined()
  })

  it("never resumes a hosted-page session or another provider's", () => {
    const hosted = {
      id: "h",
      provider_id: "pp_nexi_nexi",
      status: "pending_authorization",
      data: { amount_minor: "3998" },
    }
    const other = moto("o", "pending_authorization", "3998", "pp_system_default")
    expect(
      resumableSession(
        collection("not_paid", { payment_sessions: [hosted, other, null] }),
        "pp_nexi_nexi",
        "3998",
        "moto",
      ),
    ).toBeUndefined()
  })
})

describe("smallerAmountMinor", () => {
  it("answers the minor units of a smaller amount, and nothing for all that is owed", () => {
    expect(smallerAmountMinor("12.5", 39.98, "EUR", false)).toBe("1250")
    expect(smallerAmountMinor("39.98", "39.98", "EUR", false)).toBeUndefined()
    expect(smallerAmountMinor("500", 1200, "JPY", false)).toBe("500")
  })

  it("refuses more than is owed, a draft, too many decimals, nothing, and text, naming amount", () => {
    expect(() => smallerAmountMinor("40", 39.98, "EUR", false)).toThrow(
      "amount: 40 EUR is more than the order owes (39.98 EUR)",
    )
    expect(() => smallerAmountMinor("10", 39.98, "EUR", true)).toThrow("amount: a draft order is paid in full")
    expect(() => smallerAmountMinor("1.234", 39.98, "EUR", false)).toThrow("amount: EUR has 2 decimals; 1.234 has more")
    expect(() => smallerAmountMinor("0.00", 39.98, "EUR", false)).toThrow("amount: must be more than 0")
    expect(() => smallerAmountMinor("1e3", 39.98, "EUR", false)).toThrow("amount: must be a positive decimal number")
  })
})
