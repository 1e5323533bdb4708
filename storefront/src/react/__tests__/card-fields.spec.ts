/**
 * The card fields in React: the hook runs the payment for the session it is given (and starts
 * over for a new one), and the view shows each state with the button it calls for.
 */
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { fakeBuildSdk } from "../../__tests__/fake-build-sdk.js"
import { fakePage } from "../../__tests__/fake-dom.js"
import type { CardFieldsNextStep } from "../../card-fields.js"
import type { PaymentOutcome } from "../../payment-outcome.js"
import { CardFieldsView, type CardPaymentView, type UseCardPaymentOptions, useCardPayment } from "../card-fields.js"
import { perform, renderHook, settle, settleUntil } from "./render-hook.js"

const field = (id: string, sid: string) => ({ id, src: `https://gateway.test/field.html?id=${id}&sid=${sid}` })
const sessionOf = (sid: string, status = "pending") => ({
  id: `payses_${sid}`,
  provider_id: "pp_nexi_nexi",
  data: {
    build_session_id: sid,
    build_fields: [field("CARD_NUMBER", sid), field("SECURITY_CODE", sid)],
    build_sdk: "https://gateway.test/monetaweb/resources/hfsdk.js",
    status,
  },
})

function harness() {
  const page = fakePage()
  const { Build, made } = fakeBuildSdk()
  const work = {
    finalize: jest.fn(async (): Promise<CardFieldsNextStep> => ({ next: "complete_cart" })),
    settle: jest.fn(async (): Promise<PaymentOutcome> => ({ state: "order_placed", orderId: "order_9" })),
    loadSdk: async () => Build,
    onPaid: jest.fn(),
    renew: jest.fn(async () => undefined),
  }
  const render = (session: UseCardPaymentOptions["session"]) =>
    renderHook((props: UseCardPaymentOptions) => useCardPayment(props), { session, ...work })
  return { ...page, made, work, render }
}

describe("useCardPayment", () => {
  it("runs the payment in the element it is given: ready, paying, paid, and the page hears of the order", async () => {
    const { element, document, made, work, render } = harness()
    const hook = await render(sessionOf("bs_1"))
    expect(hook.current().state).toEqual({ status: "loading" })
    expect(hook.current().fields.map((shown) => shown.id)).toEqual(["CARD_NUMBER", "SECURITY_CODE"])
    await perform(() => hook.current().containerRef(element))
    await settleUntil(() => made.length === 1)
    expect(document.all("iframe").map((frame) => frame.title)).toEqual(["Card number", "Security code (CVV)"])
    await perform(() => made[0].options.onAllFieldsLoaded?.())
    expect(hook.current().state).toEqual({ status: "ready", problems: {} })

    await perform(() => hook.current().pay())
    expect(hook.current().state).toEqual({ status: "paying" })
    await perform(() => made[0].options.onBuildFlowStateChange?.({}, "READY_FOR_PAYMENT"))
    await settleUntil(() => hook.current().state.status === "paid")
    expect(work.finalize).toHaveBeenCalledTimes(1)
    expect(work.onPaid).toHaveBeenCalledWith("order_9")
    await hook.unmount()
    expect(document.all("iframe")).toEqual([])
  })

  it("tells the page of the order before rendering it: the action that placed it may already be unmounting the fields", async () => {
    const { element, made, work, render } = harness()
    const hook = await render(sessionOf("bs_1"))
    // What the page had rendered when it heard of the order (a Next.js server action that removed
    // the cart re-renders the checkout without these fields in the same update).
    const renderedWhenTold: string[] = []
    work.onPaid.mockImplementation(() => renderedWhenTold.push(hook.current().state.status))
    await perform(() => hook.current().containerRef(element))
    await settleUntil(() => made.length === 1)
    await perform(() => made[0].options.onAllFieldsLoaded?.())
    await perform(() => hook.current().pay())
    await perform(() => made[0].options.onBuildFlowStateChange?.({}, "READY_FOR_PAYMENT"))
    await settleUntil(() => hook.current().state.status === "paid")
    expect(renderedWhenTold).toEqual(["paying"])
    await hook.unmount()
  })

  it("starts over for a new session: the old fields go, new ones load", async () => {
    const { element, document, made, work, render } = harness()
    const hook = await render(sessionOf("bs_1"))
    await perform(() => hook.current().containerRef(element))
    await settleUntil(() => made.length === 1)
    await hook.rerender({ session: sessionOf("bs_2"), ...work })
    await settleUntil(() => made.length === 2)
    expect(document.all("iframe").map((frame) => frame.src)).toEqual([
      field("CARD_NUMBER", "bs_2").src,
      field("SECURITY_CODE", "bs_2").src,
    ])
    // The first Build's news no longer counts.
    await perform(() => made[0].options.onAllFieldsLoaded?.())
    expect(hook.current().state).toEqual({ status: "loading" })
    await hook.unmount()
  })

  it("is unavailable for a session without card fields", async () => {
    const { element, made, render } = harness()
    const hook = await render({ id: "payses_h", provider_id: "pp_nexi_nexi", data: { hosted_page: "https://x.test" } })
    await perform(() => hook.current().containerRef(element))
    expect(hook.current().state).toMatchObject({
      status: "unavailable",
      message: expect.stringMatching(/^build_fields:/),
    })
    expect(made).toEqual([])
    await hook.unmount()
  })

  it("renews: running until the new session arrives, failed when renew throws", async () => {
    const { work, render } = harness()
    const hook = await render(sessionOf("bs_1", "error"))
    await perform(() => hook.current().renew())
    expect(work.renew).toHaveBeenCalledTimes(1)
    expect(hook.current().renewal).toBe("running")
    await hook.rerender({ session: sessionOf("bs_2"), ...work })
    expect(hook.current().renewal).toBe("idle")
    work.renew.mockRejectedValueOnce(new Error("the store is down"))
    await perform(() => hook.current().renew())
    expect(hook.current().renewal).toBe("failed")
    await settle()
    await hook.unmount()
  })
})

describe("CardFieldsView", () => {
  const fields = [field("CARD_NUMBER", "bs_1"), field("SECURITY_CODE", "bs_1")]
  const view = (state: CardPaymentView["state"], extra: Partial<CardPaymentView> = {}): CardPaymentView => ({
    state,
    fields,
    pay: () => undefined,
    checkAgain: () => undefined,
    renew: async () => undefined,
    renewal: "idle",
    containerRef: () => undefined,
    ...extra,
  })
  const markup = (shown: CardPaymentView, look = {}, canRenew = true) =>
    renderToStaticMarkup(createElement(CardFieldsView, { view: shown, look, canRenew }))

  it("shows a labelled row per field with the element its iframe goes in, and Pay only when the shopper can pay", () => {
    const loading = markup(view({ status: "loading" }), { labels: { pay: "Pay EUR 42.50" }, fieldClassName: "row" })
    expect(loading).toContain('data-state="loading"')
    expect(loading).toContain(
      '<div class="row" data-nexi-field-row="CARD_NUMBER"><span data-nexi-field-label="">Card number</span><div id="CARD_NUMBER"></div></div>',
    )
    expect(loading).toContain("Loading the secure card fields…")
    expect(loading).toContain('<button type="button" disabled="">Pay EUR 42.50</button>')
    const ready = markup(view({ status: "ready", problems: {} }), { labels: { pay: "Pay EUR 42.50" } })
    expect(ready).toContain('<button type="button">Pay EUR 42.50</button>')
  })

  it("marks the fields the gateway found wrong, and says what the last try met", () => {
    const invalid = markup(
      view({
        status: "invalid",
        problems: { CARD_NUMBER: { code: "HF0004", message: "card number fails the Luhn check" } },
        notice: { code: "service_unavailable" },
      }),
    )
    expect(invalid).toContain('data-nexi-field-row="CARD_NUMBER" data-invalid=""')
    expect(invalid).toContain(
      '<p role="alert" data-nexi-field-problem="CARD_NUMBER">card number fails the Luhn check</p>',
    )
    expect(invalid).toContain(
      "Check the card details marked. The payment service is temporarily unavailable: try again.",
    )
    expect(invalid).not.toContain("disabled")
  })

  it("after a decline, an expiry or a changed cart: the reason and the way to new fields, the old ones hidden", () => {
    const declined = markup(view({ status: "declined", reason: "The card issuer declined the payment." }))
    expect(declined).toContain("The payment did not go through. The card issuer declined the payment.")
    expect(declined).toContain('<button type="button">Try another card</button>')
    expect(declined).toContain('<div hidden="">')
    expect(declined).not.toContain(">Pay<")
    const changed = markup(view({ status: "expired", cause: "cart_changed" }, { renewal: "running" }))
    expect(changed).toContain("Your cart changed after the card fields opened: start again to pay the new total.")
    expect(changed).toContain('<button type="button" disabled="">Start again</button>')
    expect(markup(view({ status: "expired", cause: "session_expired" }))).toContain("These card fields have expired.")
    expect(markup(view({ status: "unavailable", message: "blocked" }), {}, false)).not.toContain("<button")
    expect(markup(view({ status: "declined", reason: null }, { renewal: "failed" }))).toContain(
      "New card fields could not be opened: try again.",
    )
  })

  it("while the bank decides, a way to check again; once paid, no button", () => {
    expect(markup(view({ status: "pending" }))).toContain('<button type="button">Check again</button>')
    const paid = markup(view({ status: "paid", orderId: "order_1" }))
    expect(paid).toContain("Paid: your order is placed.")
    expect(paid).not.toContain("<button")
    expect(markup(view({ status: "challenge", url: "https://gateway.test/c" }))).toContain(
      "Your bank asks you to confirm the payment: taking you there…",
    )
  })
})
