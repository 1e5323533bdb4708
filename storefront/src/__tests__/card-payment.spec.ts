/**
 * A card payment in the gateway's fields, driven through the SDK's callbacks as the real SDK
 * (and the simulator's stand-in) calls them: every state the page shows, what the store is
 * asked and when, and that nothing is paid before the shopper asks to pay.
 */
import type { CardFieldsNextStep, CardFieldsSession } from "../card-fields.js"
import { type CardPaymentOptions, type CardPaymentState, startCardPayment } from "../card-payment.js"
import type { PaymentOutcome } from "../payment-outcome.js"
import { fakeBuildSdk } from "./fake-build-sdk.js"
import { fakePage } from "./fake-dom.js"

const SESSION: CardFieldsSession = {
  sessionId: "payses_build",
  buildSessionId: "bs_1",
  fields: [
    { id: "CARD_NUMBER", src: "https://gateway.test/field.html?id=CARD_NUMBER&sid=bs_1" },
    { id: "SECURITY_CODE", src: "https://gateway.test/field.html?id=SECURITY_CODE&sid=bs_1" },
  ],
  sdkUrl: "https://gateway.test/monetaweb/resources/hfsdk.js",
  status: "pending",
  reason: null,
}
const PLACED: PaymentOutcome = { state: "order_placed", orderId: "order_1" }
const QUICK = { firstDelayMs: 1, maxDelayMs: 2, giveUpAfterMs: 6 }
const CHALLENGE_URL = "https://gateway.test/hpp/MED1/challenge?token=t"

/** Lets the promises the payment started run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 5))

function start(overrides: Partial<CardPaymentOptions> = {}) {
  const page = fakePage()
  const { Build, made } = fakeBuildSdk()
  const states: CardPaymentState[] = []
  const finalize = jest.fn(async (_signal: AbortSignal): Promise<CardFieldsNextStep> => ({ next: "complete_cart" }))
  const settle = jest.fn(async (_signal: AbortSignal): Promise<PaymentOutcome> => PLACED)
  const loadSdk = jest.fn(async () => Build)
  const payment = startCardPayment({
    session: SESSION,
    container: page.element,
    onState: (state) => states.push(state),
    finalize,
    settle,
    loadSdk,
    poll: QUICK,
    ...overrides,
  })
  const sdk = () => made[0].options
  return { ...page, payment, states, made, finalize, settle, loadSdk, sdk, last: () => states.at(-1) }
}

/** Started and every field loaded: the shopper can type. */
async function ready(overrides: Partial<CardPaymentOptions> = {}) {
  const started = start(overrides)
  await settled()
  started.sdk().onAllFieldsLoaded?.()
  expect(started.last()).toEqual({ status: "ready", problems: {} })
  return started
}

/** The shopper pressed Pay and the fields confirmed the card, as the SDK reports it. */
async function payConfirmed(started: Awaited<ReturnType<typeof ready>>) {
  started.payment.pay()
  expect(started.made[0].confirms).toBe(1)
  started
    .sdk()
    .onBuildFlowStateChange?.({ event: "BUILD_FLOW_STATE_CHANGE", state: "READY_FOR_PAYMENT" }, "READY_FOR_PAYMENT")
  await settled()
}

describe("startCardPayment", () => {
  it("loads the SDK, creates Build with the page's styling, mounts the fields, and is ready once they loaded", async () => {
    const started = start({
      style: { cssLink: "/nexi-card-fields.css", componentClassName: "card-input", containerClassName: "card-box" },
      integrity: "sha384-abc",
      titles: { CARD_NUMBER: "Card number" },
    })
    expect(started.states).toEqual([{ status: "loading" }])
    await settled()
    expect(started.loadSdk).toHaveBeenCalledWith(expect.anything(), SESSION.sdkUrl, { integrity: "sha384-abc" })
    expect(started.sdk()).toMatchObject({
      cssLink: "https://shop.test/nexi-card-fields.css",
      defaultComponentCssClassName: "card-input",
      defaultContainerCssClassName: "card-box",
    })
    const frames = started.document.all("iframe")
    expect(frames.map((frame) => [frame.src, frame.title])).toEqual([
      [SESSION.fields[0].src, "Card number"],
      [SESSION.fields[1].src, "SECURITY_CODE"],
    ])
    expect(started.last()).toEqual({ status: "loading" })
    // An SDK without onAllFieldsLoaded: the iframes' own load events tell.
    for (const frame of frames) frame.dispatch("load")
    expect(started.last()).toEqual({ status: "ready", problems: {} })
  })

  it("marks a field the gateway finds wrong, and is ready again once it is right", async () => {
    const { sdk, last } = await ready()
    sdk().onBuildError?.({
      event: "BUILD_ERROR",
      id: "CARD_NUMBER",
      errorCode: "HF0004",
      errorMessage: "card number invalid",
    })
    expect(last()).toEqual({
      status: "invalid",
      problems: { CARD_NUMBER: { code: "HF0004", message: "card number invalid" } },
    })
    sdk().onBuildSuccess?.({ event: "BUILD_SUCCESS", id: "CARD_NUMBER" })
    expect(last()).toEqual({ status: "ready", problems: {} })
  })

  it("pays: confirms the card, has the store pay, completes the cart", async () => {
    const started = await ready()
    started.payment.pay()
    expect(started.last()).toEqual({ status: "paying" })
    expect(started.made[0].confirms).toBe(1)
    expect(started.finalize).not.toHaveBeenCalled()
    started
      .sdk()
      .onBuildFlowStateChange?.({ event: "BUILD_FLOW_STATE_CHANGE", state: "READY_FOR_PAYMENT" }, "READY_FOR_PAYMENT")
    await settled()
    expect(started.finalize).toHaveBeenCalledTimes(1)
    expect(started.settle).toHaveBeenCalledTimes(1)
    expect(started.states.slice(-2)).toEqual([{ status: "paying" }, { status: "paid", orderId: "order_1" }])
  })

  it("sends the browser to the 3-D Secure challenge", async () => {
    const navigate = jest.fn()
    const started = await ready({ navigate })
    started.finalize.mockResolvedValueOnce({ next: "redirect", url: CHALLENGE_URL })
    await payConfirmed(started)
    expect(started.last()).toEqual({ status: "challenge", url: CHALLENGE_URL })
    expect(navigate).toHaveBeenCalledWith(CHALLENGE_URL)
    expect(started.settle).not.toHaveBeenCalled()
  })

  it("navigates the page itself without a navigate option", async () => {
    const started = await ready()
    started.finalize.mockResolvedValueOnce({ next: "redirect", url: CHALLENGE_URL })
    await payConfirmed(started)
    expect(started.document.defaultView.location.assign).toHaveBeenCalledWith(CHALLENGE_URL)
  })

  it("says why a declined card did not pay", async () => {
    const started = await ready()
    started.finalize.mockResolvedValueOnce({ next: "declined", reason: "The card issuer declined the payment." })
    await payConfirmed(started)
    expect(started.last()).toEqual({ status: "declined", reason: "The card issuer declined the payment." })
    expect(started.settle).not.toHaveBeenCalled()
  })

  it("waits for an outcome the gateway has not decided, polling the store", async () => {
    const started = await ready()
    started.finalize.mockResolvedValueOnce({ next: "wait" })
    started.settle
      .mockResolvedValueOnce({ state: "pending", sessionId: "payses_build" })
      .mockResolvedValueOnce({ state: "declined", reason: "3-D Secure failed." })
    await payConfirmed(started)
    await settled()
    expect(started.settle).toHaveBeenCalledTimes(2)
    expect(started.last()).toEqual({ status: "declined", reason: "3-D Secure failed." })
  })

  it("is pending when the store cannot say, and checks again on request", async () => {
    const started = await ready()
    started.settle.mockRejectedValueOnce(new Error("fetch failed"))
    await payConfirmed(started)
    expect(started.last()).toEqual({ status: "pending" })
    started.payment.checkAgain()
    await settled()
    expect(started.last()).toEqual({ status: "paid", orderId: "order_1" })
  })

  it("expires when the fields say the gateway's session did (HF0003), before or on paying", async () => {
    const early = await ready()
    early
      .sdk()
      .onBuildError?.({ event: "BUILD_ERROR", id: "CARD_NUMBER", errorCode: "HF0003", errorMessage: "expired" })
    expect(early.last()).toEqual({ status: "expired", cause: "session_expired" })
    early.payment.pay()
    expect(early.made[0].confirms).toBe(0)

    const late = await ready()
    late.payment.pay()
    late.sdk().onConfirmError?.({ errorCode: "HF0003", errorMessage: "expired", validationStatus: [] })
    expect(late.last()).toEqual({ status: "expired", cause: "session_expired" })
    expect(late.finalize).not.toHaveBeenCalled()
  })

  it("marks the fields a confirmation refused, and says when the gateway could not check the card", async () => {
    const { payment, sdk, last, made } = await ready()
    payment.pay()
    sdk().onConfirmError?.({
      errorCode: "HF0001",
      validationStatus: [
        { id: "CARD_NUMBER", valid: true },
        { id: "SECURITY_CODE", valid: false, errorCode: "HF0001", errorMessage: "CVV must be 3 or 4 digits" },
      ],
    })
    expect(last()).toEqual({
      status: "invalid",
      problems: { SECURITY_CODE: { code: "HF0001", message: "CVV must be 3 or 4 digits" } },
    })
    sdk().onBuildSuccess?.({ id: "SECURITY_CODE" })
    payment.pay()
    expect(made[0].confirms).toBe(2)
    sdk().onConfirmError?.({ errorCode: "HF0002", errorMessage: "temporarily unavailable" })
    expect(last()).toEqual({
      status: "ready",
      problems: {},
      notice: { code: "service_unavailable", message: "temporarily unavailable" },
    })
  })

  it("has the store asked again after its answer was lost: the next Pay confirms and finalizes again", async () => {
    const started = await ready()
    started.finalize.mockRejectedValueOnce(new Error("fetch failed"))
    await payConfirmed(started)
    expect(started.last()).toEqual({
      status: "ready",
      problems: {},
      notice: { code: "store_error", message: "fetch failed" },
    })
    started.payment.pay()
    expect(started.made[0].confirms).toBe(2)
    started
      .sdk()
      .onBuildFlowStateChange?.({ event: "BUILD_FLOW_STATE_CHANGE", state: "PAYMENT_COMPLETE" }, "PAYMENT_COMPLETE")
    await settled()
    expect(started.finalize).toHaveBeenCalledTimes(2)
    expect(started.last()).toEqual({ status: "paid", orderId: "order_1" })
  })

  it("never pays before the shopper asks: a READY_FOR_PAYMENT of its own waits for their Pay", async () => {
    const started = await ready()
    started.sdk().onBuildFlowStateChange?.({ event: "BUILD_FLOW_STATE_CHANGE", state: "READY_FOR_PAYMENT" })
    await settled()
    expect(started.finalize).not.toHaveBeenCalled()
    expect(started.last()).toEqual({ status: "ready", problems: {} })
    started.payment.pay()
    await settled()
    // Confirmed already: no second confirmation.
    expect(started.made[0].confirms).toBe(0)
    expect(started.finalize).toHaveBeenCalledTimes(1)
    expect(started.last()).toEqual({ status: "paid", orderId: "order_1" })
  })

  it("gives the shopper the button back when the fields do not answer", async () => {
    const started = await ready({ confirmTimeoutMs: 1 })
    started.payment.pay()
    await settled()
    expect(started.last()).toEqual({ status: "ready", problems: {}, notice: { code: "no_answer" } })
  })

  it("refused by the store (409): the cart that became an order is paid; one that changed needs new fields", async () => {
    const completed = await ready()
    completed.finalize.mockResolvedValueOnce({ next: "start_again", reason: "Cart cart_1 is already completed" })
    await payConfirmed(completed)
    expect(completed.settle).toHaveBeenCalledTimes(1)
    expect(completed.last()).toEqual({ status: "paid", orderId: "order_1" })

    const changed = await ready()
    changed.finalize.mockResolvedValueOnce({ next: "start_again", reason: "The cart's total changed" })
    changed.settle.mockResolvedValueOnce({ state: "no_payment" })
    await payConfirmed(changed)
    expect(changed.settle).toHaveBeenCalledTimes(1)
    expect(changed.last()).toEqual({ status: "expired", cause: "cart_changed" })
  })

  it("starts from the session's own status: declined shows its reason, paid completes the cart", async () => {
    const declined = start({ session: { ...SESSION, status: "error", reason: "Declined." } })
    await settled()
    expect(declined.loadSdk).not.toHaveBeenCalled()
    expect(declined.last()).toEqual({ status: "declined", reason: "Declined." })

    const paid = start({ session: { ...SESSION, status: "authorized" } })
    await settled()
    expect(paid.loadSdk).not.toHaveBeenCalled()
    expect(paid.last()).toEqual({ status: "paid", orderId: "order_1" })
  })

  it("says the fields are unavailable when the SDK does not load", async () => {
    const started = start({ loadSdk: async () => Promise.reject(new Error("blocked by the page's policy")) })
    await settled()
    expect(started.last()).toEqual({ status: "unavailable", message: "blocked by the page's policy" })
    started.payment.pay()
    expect(started.last()).toEqual({ status: "unavailable", message: "blocked by the page's policy" })
  })

  it("stops: the fields go, the SDK's later news and the store's late answer change nothing", async () => {
    const started = await ready()
    let answer: (next: CardFieldsNextStep) => void = () => undefined
    started.finalize.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    started.payment.pay()
    started.sdk().onBuildFlowStateChange?.({}, "READY_FOR_PAYMENT")
    const signal = started.finalize.mock.calls[0][0]
    started.payment.stop()
    expect(signal.aborted).toBe(true)
    expect(started.document.all("iframe")).toEqual([])
    const count = started.states.length
    answer({ next: "redirect", url: CHALLENGE_URL })
    started.sdk().onBuildError?.({ id: "CARD_NUMBER", errorCode: "HF0004" })
    await settled()
    expect(started.states).toHaveLength(count)
    expect(started.document.defaultView.location.assign).not.toHaveBeenCalled()
  })

  it("ignores Pay while loading and while paying", async () => {
    const started = start()
    started.payment.pay()
    await settled()
    started.sdk().onAllFieldsLoaded?.()
    started.payment.pay()
    started.payment.pay()
    expect(started.made[0].confirms).toBe(1)
  })
})
