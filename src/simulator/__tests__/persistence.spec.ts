/** The state file: a restarted simulator knows the orders, operations and idempotency answers of before. */
import { randomUUID } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startSimulator } from "../index"
import { SimulatorHarness } from "./support/harness"

let directory: string
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "nexi-sim-"))
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

async function withSimulator<T>(stateFile: string, run: (harness: SimulatorHarness) => Promise<T>): Promise<T> {
  const harness = new SimulatorHarness()
  harness.sim = await startSimulator({ port: 0, control: true, stateFile })
  try {
    return await run(harness)
  } finally {
    await harness.sim.close()
  }
}

describe("stateFile", () => {
  it("survives a restart: orders, operations, hosted pages and idempotency answers", async () => {
    const stateFile = join(directory, "state.json")
    const key = randomUUID()
    const before = await withSimulator(stateFile, async (harness) => {
      const authorization = await harness.moto()
      const capture = await harness.gateway("POST", `/operations/${authorization.operationId}/captures`, {
        idempotencyKey: key,
        body: { amount: "1000", currency: "EUR" },
      })
      const hosted = await harness.hostedOrder()
      return { authorization, capture: capture.body, hosted, order: (await harness.order(authorization.orderId)).body }
    })
    expect(existsSync(stateFile)).toBe(true)
    const text = readFileSync(stateFile, "utf8")
    expect(text).not.toContain("5d952446")
    expect(text).not.toContain("4999340261977289")

    await withSimulator(stateFile, async (harness) => {
      expect((await harness.order(before.authorization.orderId)).body).toEqual(before.order)
      const replay = await harness.gateway("POST", `/operations/${before.authorization.operationId}/captures`, {
        idempotencyKey: key,
        body: { amount: "1000", currency: "EUR" },
      })
      expect(replay.body).toEqual(before.capture)
      // Port 0 gave the restarted simulator another port; the page path and token still hold.
      const page = new URL(before.hosted.hostedPage)
      expect((await harness.call("GET", `${harness.sim.url}${page.pathname}${page.search}`)).status).toBe(200)
      expect(
        (await harness.payHosted(before.hosted.orderId, { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }))
          .status,
      ).toBe(200)
    })
  })

  it("is emptied by reset", async () => {
    const stateFile = join(directory, "state.json")
    await withSimulator(stateFile, async (harness) => {
      await harness.moto()
      await harness.control("POST", "/reset")
    })
    await withSimulator(stateFile, async (harness) => {
      expect((await harness.gateway("GET", "/orders")).body.orders).toEqual([])
    })
  })

  it("keeps pending refunds pending across a restart", async () => {
    const stateFile = join(directory, "state.json")
    const refundId = await withSimulator(stateFile, async (harness) => {
      await harness.control("POST", "/settings/refunds", { mode: "pending" })
      const payment = await harness.moto({ captureType: "IMPLICIT" })
      return (await harness.postOperation("refunds", payment.operationId, "100")).body.operationId
    })
    await withSimulator(stateFile, async (harness) => {
      expect((await harness.operation(refundId)).body.operationResult).toBe("PENDING")
      await harness.control("POST", "/refunds/settle", { operationId: refundId })
      expect((await harness.operation(refundId)).body.operationResult).toBe("REFUNDED")
    })
  })

  it("refuses to start on a file that is not a state file", async () => {
    const stateFile = join(directory, "broken.json")
    writeFileSync(stateFile, "{ nope")
    await expect(startSimulator({ port: 0, stateFile })).rejects.toThrow(/not valid JSON/)
    writeFileSync(stateFile, JSON.stringify({ version: 99 }))
    await expect(startSimulator({ port: 0, stateFile })).rejects.toThrow(/delete it/)
  })
})
