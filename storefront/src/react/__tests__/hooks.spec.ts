/** The headless hooks, rendered by React DOM: what they show, when they stop, what they ask for. */
import type { PaymentOutcome } from "../../payment-outcome.js"
import type { SavedCard } from "../../saved-cards.js"
import { usePaymentOutcome, useSavedCards } from "../index.js"
import { perform, renderHook, settle, settleUntil } from "./render-hook.js"

const pending: PaymentOutcome = { state: "pending", sessionId: "payses_1", approvalUrl: "https://psp.test/approve/1" }
const placed: PaymentOutcome = { state: "order_placed", orderId: "order_1" }
const QUICK = { firstDelayMs: 1, maxDelayMs: 2, giveUpAfterMs: 6 }

function answering(...outcomes: PaymentOutcome[]) {
  const queue = [...outcomes]
  return jest.fn(async (_signal?: AbortSignal) => queue.shift() ?? pending)
}

describe("usePaymentOutcome", () => {
  it("shows each answer while polling, and the settled one at the end", async () => {
    let answerSecond: (outcome: PaymentOutcome) => void = () => undefined
    const check = jest
      .fn<Promise<PaymentOutcome>, [AbortSignal?]>()
      .mockResolvedValueOnce(pending)
      .mockReturnValueOnce(new Promise((resolve) => (answerSecond = resolve)))
    const hook = await renderHook(({ id }: { id: string }) => usePaymentOutcome(id, check, QUICK), { id: "cart_1" })
    await settleUntil(() => check.mock.calls.length === 2)
    expect(hook.current()).toMatchObject({ outcome: pending, polling: true })
    await perform(() => answerSecond(placed))
    expect(hook.current()).toMatchObject({ outcome: placed, polling: false })
    expect(hook.current().error).toBeUndefined()
    expect(check).toHaveBeenCalledTimes(2)
    await hook.unmount()
  })

  it("ends pending when the pauses run out, and checkAgain starts over", async () => {
    const check = answering()
    const hook = await renderHook(() => usePaymentOutcome("cart_1", check, QUICK), {})
    await settleUntil(() => !hook.current().polling)
    expect(hook.current()).toMatchObject({ outcome: pending, polling: false })
    const checksBefore = check.mock.calls.length
    check.mockResolvedValueOnce(placed)
    await perform(() => hook.current().checkAgain())
    await settleUntil(() => !hook.current().polling)
    expect(hook.current()).toMatchObject({ outcome: placed, polling: false })
    expect(check).toHaveBeenCalledTimes(checksBefore + 1)
    await hook.unmount()
  })

  it("aborts the check's signal on unmount, and checks no more", async () => {
    const check = answering()
    const hook = await renderHook(() => usePaymentOutcome("cart_1", check, { firstDelayMs: 60_000 }), {})
    const signal = check.mock.calls[0][0]
    expect(signal?.aborted).toBe(false)
    await hook.unmount()
    expect(signal?.aborted).toBe(true)
    await settle(5)
    expect(check).toHaveBeenCalledTimes(1)
  })

  it("polls nothing without a key, and starts when one comes", async () => {
    const check = answering(placed)
    const hook = await renderHook(({ id }: { id?: string }) => usePaymentOutcome(id, check, QUICK), {})
    expect(hook.current()).toMatchObject({ polling: false })
    expect(hook.current().outcome).toBeUndefined()
    expect(check).not.toHaveBeenCalled()
    await hook.rerender({ id: "cart_1" })
    await settleUntil(() => !hook.current().polling)
    expect(hook.current()).toMatchObject({ outcome: placed, polling: false })
    await hook.unmount()
  })

  it("uses the latest check without restarting when only the function changes", async () => {
    let answerFirst: (outcome: PaymentOutcome) => void = () => undefined
    const first = jest
      .fn<Promise<PaymentOutcome>, [AbortSignal?]>()
      .mockReturnValueOnce(new Promise((resolve) => (answerFirst = resolve)))
    const second = answering(placed)
    const hook = await renderHook(({ check }: { check: typeof first }) => usePaymentOutcome("cart_1", check, QUICK), {
      check: first,
    })
    await hook.rerender({ check: second })
    await perform(() => answerFirst(pending))
    await settleUntil(() => !hook.current().polling)
    expect(first).toHaveBeenCalledTimes(1)
    expect(second).toHaveBeenCalledTimes(1)
    expect(hook.current()).toMatchObject({ outcome: placed, polling: false })
    await hook.unmount()
  })

  it("shows a check's error and stops", async () => {
    const failure = new Error("store down")
    const check = jest.fn(async () => Promise.reject(failure))
    const hook = await renderHook(() => usePaymentOutcome("cart_1", check, QUICK), {})
    await settle()
    expect(hook.current()).toMatchObject({ error: failure, polling: false })
    await hook.unmount()
  })
})

const visa: SavedCard = {
  id: "nexcard_1",
  circuit: "VISA",
  masked_pan: "453997******4549",
  expiry: null,
  allows_merchant_charges: false,
  created_at: "2026-11-20T10:00:00.000Z",
  provider_id: "pp_nexi_nexi",
}
const mastercard: SavedCard = { ...visa, id: "nexcard_2", circuit: "MC", masked_pan: "525599******0001" }

describe("useSavedCards", () => {
  it("lists the cards once, and removes one without listing again", async () => {
    const list = jest.fn(async () => [visa, mastercard])
    const remove = jest.fn(async (_id: string) => undefined)
    const hook = await renderHook(() => useSavedCards({ list, remove }), {})
    expect(hook.current()).toMatchObject({ cards: [visa, mastercard], loading: false, error: undefined })
    await hook.rerender({})
    expect(list).toHaveBeenCalledTimes(1)
    await perform(() => hook.current().remove("nexcard_1"))
    expect(remove).toHaveBeenCalledWith("nexcard_1")
    expect(hook.current().cards).toEqual([mastercard])
    expect(list).toHaveBeenCalledTimes(1)
    await hook.unmount()
  })

  it("keeps a card whose deletion failed and shows why", async () => {
    const failure = new Error("Saved card not found")
    const hook = await renderHook(
      () => useSavedCards({ list: async () => [visa], remove: async () => Promise.reject(failure) }),
      {},
    )
    await perform(() => hook.current().remove("nexcard_1"))
    expect(hook.current()).toMatchObject({ cards: [visa], error: failure })
    await hook.unmount()
  })

  it("shows a failed list, and reload lists again", async () => {
    const failure = new Error("Unauthorized")
    const list = jest.fn<Promise<SavedCard[]>, []>().mockRejectedValueOnce(failure).mockResolvedValueOnce([visa])
    const hook = await renderHook(() => useSavedCards({ list, remove: async () => undefined }), {})
    expect(hook.current()).toMatchObject({ cards: undefined, loading: false, error: failure })
    await perform(() => hook.current().reload())
    await settle()
    expect(hook.current()).toMatchObject({ cards: [visa], loading: false, error: undefined })
    expect(list).toHaveBeenCalledTimes(2)
    await hook.unmount()
  })

  it("ignores a list that arrives after a newer one was asked for", async () => {
    let answerFirst: (cards: SavedCard[]) => void = () => undefined
    const list = jest
      .fn<Promise<SavedCard[]>, []>()
      .mockReturnValueOnce(new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce([mastercard])
    const hook = await renderHook(() => useSavedCards({ list, remove: async () => undefined }), {})
    await perform(() => hook.current().reload())
    await settle()
    await perform(() => answerFirst([visa]))
    expect(hook.current().cards).toEqual([mastercard])
    await hook.unmount()
  })
})
