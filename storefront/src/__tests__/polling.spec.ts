/** Bounded, growing pauses that end on an AbortSignal. Short pauses keep the tests quick; the arithmetic is pollDelays'. */
import type { PaymentOutcome } from "../payment-outcome.js"
import { pollDelays, pollPaymentOutcome, waitForPaymentOutcome } from "../polling.js"
import { BACKEND, calls, fakeFetch } from "./fake-fetch.js"

const pending: PaymentOutcome = { state: "pending", sessionId: "payses_1" }
const placed: PaymentOutcome = { state: "order_placed", orderId: "order_1" }
const QUICK = { firstDelayMs: 1, maxDelayMs: 2, giveUpAfterMs: 10 }

function answering(...outcomes: PaymentOutcome[]) {
  const queue = [...outcomes]
  const check = jest.fn(async () => queue.shift() ?? pending)
  return check
}

describe("pollDelays", () => {
  it("grows by half each time up to the cap, and adds up to no more than the give-up time", () => {
    expect(pollDelays()).toEqual([2000, 3000, 4500, 6750, 8000, 8000, 8000, 8000, 8000])
    expect(pollDelays().reduce((sum, delay) => sum + delay, 0)).toBeLessThanOrEqual(60_000)
    expect(pollDelays({ firstDelayMs: 3000, maxDelayMs: 3000, giveUpAfterMs: 10_000 })).toEqual([3000, 3000, 3000])
    expect(pollDelays({ giveUpAfterMs: 1000 })).toEqual([])
  })

  it("refuses a pause that is not a positive number, naming it", () => {
    expect(() => pollDelays({ maxDelayMs: 0 })).toThrow("maxDelayMs: must be a positive number of milliseconds")
    expect(() => pollDelays({ giveUpAfterMs: Number.NaN })).toThrow(
      "giveUpAfterMs: must be a positive number of milliseconds",
    )
  })
})

describe("pollPaymentOutcome", () => {
  it("checks until the outcome is settled, reporting each answer", async () => {
    const check = answering(pending, pending, placed)
    const seen: PaymentOutcome[] = []
    expect(await pollPaymentOutcome(check, { poll: QUICK, onOutcome: (outcome) => seen.push(outcome) })).toEqual(placed)
    expect(check).toHaveBeenCalledTimes(3)
    expect(seen).toEqual([pending, pending, placed])
  })

  it("answers pending once the pauses run out: one check more than pauses", async () => {
    const check = answering()
    expect(await pollPaymentOutcome(check, { poll: QUICK })).toEqual(pending)
    expect(check).toHaveBeenCalledTimes(pollDelays(QUICK).length + 1)
  })

  it("stops at once on abort, during a pause", async () => {
    const controller = new AbortController()
    const check = answering()
    const polling = pollPaymentOutcome(check, { signal: controller.signal, poll: { firstDelayMs: 60_000 } })
    await Promise.resolve()
    controller.abort(new Error("left the page"))
    await expect(polling).rejects.toThrow("left the page")
    expect(check).toHaveBeenCalledTimes(1)
  })

  it("drops the answer of a check that finished after the abort", async () => {
    const controller = new AbortController()
    const onOutcome = jest.fn()
    const check = jest.fn(async () => {
      controller.abort(new Error("left the page"))
      return placed
    })
    await expect(pollPaymentOutcome(check, { signal: controller.signal, onOutcome })).rejects.toThrow("left the page")
    expect(onOutcome).not.toHaveBeenCalled()
  })

  it("lets a failing check's error through", async () => {
    await expect(
      pollPaymentOutcome(async () => Promise.reject(new Error("store down")), { poll: QUICK }),
    ).rejects.toThrow("store down")
  })
})

describe("waitForPaymentOutcome", () => {
  it("polls the status route with the caller's headers until the order exists", async () => {
    const pendingStatus = {
      payment_session: {
        id: "payses_1",
        status: "pending",
        provider_id: "pp_nexi-apm-psp-b_nexi",
        data: { reason: null },
      },
      cart_completed: false,
    }
    const { client, requests } = fakeFetch([
      { body: pendingStatus },
      {
        body: {
          ...pendingStatus,
          payment_session: { ...pendingStatus.payment_session, status: "authorized" },
          cart_completed: true,
          order_id: "order_1",
        },
      },
    ])
    const outcome = await waitForPaymentOutcome(
      client,
      { cartId: "cart_1", sessionId: "payses_1" },
      { poll: QUICK, headers: { authorization: "Bearer jwt" } },
    )
    expect(outcome).toEqual(placed)
    const url = `GET ${BACKEND}/store/nexi/payment-sessions/payses_1?cart_id=cart_1`
    expect(calls(requests)).toEqual([url, url])
    expect(requests.map((request) => request.headers.authorization)).toEqual(["Bearer jwt", "Bearer jwt"])
  })
})
