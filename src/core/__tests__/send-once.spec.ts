/**
 * sendOnce against the in-memory ledger, with the gateway stood in by the two functions the
 * plan carries (the boundary this module owns): what is sent, how often, and what the ledger
 * holds after each kind of answer.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { InMemoryLedger } from "../../../test-support/in-memory-ledger"
import { InvalidRequestError, OutcomeUnknownError } from "../../http/errors"
import type { NewWrite } from "../../modules/nexi-ledger/types"
import { type OnceWrite, sendOnce } from "../send-once"

const WRITE = {
  kind: "refund" as const,
  idempotency_key: "key-1",
  gateway_ref: "ORD1",
  amount_minor: "500",
  currency: "EUR",
  medusa_ref: "ref_1",
}

function plan(
  ledger: InMemoryLedger,
  send: () => Promise<string>,
  find: () => Promise<string | undefined>,
  { keyless = false, write = WRITE as NewWrite } = {},
): OnceWrite {
  const recover = { find, refusalMayMeanMade: keyless, whenUnreadable: "wait" as const }
  return { ledger, write, label: "refund of 5.00 EUR", action: "refund the payment", send, recover }
}

describe("sendOnce", () => {
  it("records the write before sending and settles it executed, claimed by its Medusa record", async () => {
    const ledger = new InMemoryLedger()
    const send = jest.fn(async () => {
      expect(ledger.writes).toEqual([expect.objectContaining({ outcome: "requested" })])
      return "op-1"
    })
    await expect(sendOnce(plan(ledger, send, async () => undefined))).resolves.toBe("op-1")
    expect(ledger.writes).toEqual([
      expect.objectContaining({ outcome: "executed", gateway_operation_id: "op-1", claimed_by: "ref_1" }),
    ])
  })

  it("answers a key the ledger holds as executed without sending again", async () => {
    const ledger = new InMemoryLedger()
    await sendOnce(
      plan(
        ledger,
        async () => "op-1",
        async () => undefined,
      ),
    )
    const send = jest.fn(async () => "op-2")
    await expect(sendOnce(plan(ledger, send, async () => undefined))).resolves.toBe("op-1")
    expect(send).not.toHaveBeenCalled()
  })

  it("rethrows a refusal as it came and records it refused", async () => {
    const ledger = new InMemoryLedger()
    const refusal = new InvalidRequestError("gateway", "refused", { status: 400 })
    await expect(
      sendOnce(
        plan(
          ledger,
          async () => Promise.reject(refusal),
          async () => undefined,
        ),
      ),
    ).rejects.toBe(refusal)
    expect(ledger.writes[0]).toMatchObject({ outcome: "refused", message: "refused" })
  })

  it("asks an earlier unknown write of the same key before sending it again", async () => {
    const ledger = new InMemoryLedger()
    const lost = new OutcomeUnknownError("gateway", "no answer")
    await expect(
      sendOnce(
        plan(
          ledger,
          async () => Promise.reject(lost),
          async () => Promise.reject(new Error("down")),
        ),
      ),
    ).rejects.toThrow(/cannot be read now to tell whether the refund of 5.00 EUR was made\. Do not try again/)
    expect(ledger.writes[0].outcome).toBe("unknown")
    const send = jest.fn(async () => "op-2")
    await expect(sendOnce(plan(ledger, send, async () => "op-1"))).resolves.toBe("op-1")
    expect(send).not.toHaveBeenCalled()
  })

  it("sends nothing when the write cannot be recorded", async () => {
    const ledger = new InMemoryLedger()
    ledger.requestWrite = async () => Promise.reject(new Error("database down"))
    const send = jest.fn(async () => "op-1")
    const error = await sendOnce(plan(ledger, send, async () => undefined)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MedusaError)
    expect((error as Error).message).toMatch(
      /could not be recorded in the Nexi ledger \(database down\)\. Nothing was sent/,
    )
    expect(send).not.toHaveBeenCalled()
  })

  describe("a write the gateway takes no key for (a cancel), sent by two callers at once", () => {
    const CANCEL = { ...WRITE, kind: "cancel_capture" as const, idempotency_key: "cancel-1" }

    it("never lets the loser's refusal overwrite the winner's executed, and tells the loser it was made", async () => {
      const ledger = new InMemoryLedger()
      // The gateway stood in by one cancel: the first request makes it, the second is refused.
      let cancelled: string | undefined
      let release: () => void = () => {}
      const winnerSent = new Promise<void>((resolve) => {
        release = resolve
      })
      const send = async () => {
        if (cancelled) throw new InvalidRequestError("gateway", "operation already cancelled", { status: 400 })
        cancelled = "op-cancel"
        await winnerSent
        return cancelled
      }
      const find = async () => cancelled
      const winner = sendOnce(plan(ledger, send, find, { keyless: true, write: CANCEL }))
      const loser = sendOnce(plan(ledger, send, find, { keyless: true, write: CANCEL }))
      await expect(loser).resolves.toBe("op-cancel")
      release()
      await expect(winner).resolves.toBe("op-cancel")
      expect(ledger.writes).toEqual([
        expect.objectContaining({ outcome: "executed", gateway_operation_id: "op-cancel" }),
      ])
    })

    it("keeps executed when a late refusal is recorded after it", async () => {
      const ledger = new InMemoryLedger()
      await sendOnce(
        plan(
          ledger,
          async () => "op-cancel",
          async () => undefined,
          { keyless: true, write: CANCEL },
        ),
      )
      const settled = await ledger.updateWrite(CANCEL.idempotency_key, {
        outcome: "refused",
        message: "operation already cancelled",
      })
      expect(settled).toMatchObject({ outcome: "executed", gateway_operation_id: "op-cancel", message: null })
      await ledger.updateWrite(CANCEL.idempotency_key, { outcome: "unknown" })
      expect(ledger.writes[0].outcome).toBe("executed")
    })

    it("calls a refusal refused when the gateway's record holds no cancel", async () => {
      const ledger = new InMemoryLedger()
      const refusal = new InvalidRequestError("gateway", "capture cannot be cancelled", { status: 400 })
      const find = jest.fn(async () => undefined)
      await expect(
        sendOnce(plan(ledger, async () => Promise.reject(refusal), find, { keyless: true, write: CANCEL })),
      ).rejects.toBe(refusal)
      expect(find).toHaveBeenCalledTimes(1)
      expect(ledger.writes[0]).toMatchObject({ outcome: "refused", message: "capture cannot be cancelled" })
    })
  })
})
