/**
 * The contracts endpoints over HTTP: GET /contracts/customers/{customerId} lists a customer's
 * usable contracts (404 when none), POST /contracts/{contractId}/deactivation ends one for
 * every later use (merchant charge, one-click payment, card substitution), and the control
 * API shows the state. Faults apply as on every endpoint; the state file keeps deactivations.
 */

import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DEFAULTS, startSimulator } from "../index"
import { SimulatorHarness, setUpSimulator } from "./support/harness"
import { saveContract } from "./support/saved-contracts"
import { CARDS } from "./support/test-cards"

const OTHER_MERCHANT = "other-merchant"
const harness = setUpSimulator({ apiKeys: [DEFAULTS.apiKey, OTHER_MERCHANT] })

const listOf = (customerId: string, apiKey?: string) =>
  harness.gateway("GET", `/contracts/customers/${customerId}`, { apiKey })
const deactivate = (contractId: string, apiKey?: string) =>
  harness.gateway("POST", `/contracts/${contractId}/deactivation`, { apiKey })

describe("GET /contracts/customers/{customerId}", () => {
  it("lists the customer's contracts with type, schedule and masked card, never the number", async () => {
    const end = "2099-01-31T00:00:00.000Z"
    await saveContract(harness, "C1", { contractType: "CIT" })
    await saveContract(harness, "C2", {
      contractType: "MIT_SCHEDULED",
      contractExpiryDate: end,
      card: CARDS.approvedMc,
    })
    await saveContract(harness, "C3", { customerId: "cus_bob" })
    const answer = await listOf("cus_alice")
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      customerId: "cus_alice",
      contracts: [
        {
          contractId: "C1",
          contractType: "CIT",
          paymentMethod: "CARD",
          paymentCircuit: "VISA",
          paymentInstrumentInfo: "***7289",
        },
        {
          contractId: "C2",
          contractType: "MIT_SCHEDULED",
          contractExpiryDate: end,
          contractFrequency: "30",
          paymentMethod: "CARD",
          paymentCircuit: "MC",
          paymentInstrumentInfo: "***2903",
        },
      ],
    })
    expect(JSON.stringify(answer.body)).not.toContain(CARDS.approvedMc.pan)
  })

  it("answers 404 for a customer with none, and to another merchant", async () => {
    await saveContract(harness, "C1")
    expect((await listOf("cus_nobody")).status).toBe(404)
    expect((await listOf("cus_alice", OTHER_MERCHANT)).status).toBe(404)
  })
})

describe("POST /contracts/{contractId}/deactivation", () => {
  it("ends the contract: gone from the customer's list (404 when it was the last), shown deactivated by the control API", async () => {
    await saveContract(harness, "C1")
    const answer = await deactivate("C1")
    expect(answer.status).toBe(200)
    expect((await listOf("cus_alice")).status).toBe(404)
    const control = await harness.control("GET", "/contracts?customerId=cus_alice")
    expect(control.body.contracts).toEqual([expect.objectContaining({ contractId: "C1", state: "deactivated" })])
  })

  it("answers 200 again for a deactivated contract, and 404 for an unknown one or another merchant's", async () => {
    await saveContract(harness, "C1")
    expect((await deactivate("C1")).status).toBe(200)
    expect((await deactivate("C1")).status).toBe(200)
    expect((await deactivate("NOPE")).status).toBe(404)
    await saveContract(harness, "C2")
    expect((await deactivate("C2", OTHER_MERCHANT)).status).toBe(404)
    expect((await listOf("cus_alice")).body.contracts.map((c: { contractId: string }) => c.contractId)).toEqual(["C2"])
  })

  it("refuses later one-click payments and card substitutions on it (SIM1002), and keeps its id taken (SIM1001)", async () => {
    await saveContract(harness, "C1", { contractType: "CIT" })
    await deactivate("C1")
    for (const action of ["SUBSEQUENT_PAYMENT", "CARD_SUBSTITUTION", "CONTRACT_CREATION"]) {
      const answer = await harness.gateway("POST", "/orders/hpp", {
        body: {
          order: { orderId: harness.newOrderId(), amount: "100", currency: "EUR", customerId: "cus_alice" },
          paymentSession: {
            amount: "100",
            language: "eng",
            recurrence: { action, contractId: "C1", contractType: "CIT" },
          },
        },
      })
      expect(answer.body.errors[0].code).toBe(action === "CONTRACT_CREATION" ? "SIM1001" : "SIM1002")
    }
  })

  it("declines a one-click payment whose page was opened before the deactivation, and substitutes no card", async () => {
    await saveContract(harness, "C1", { contractType: "CIT" })
    const open = (action: string) =>
      harness.hostedOrder({
        order: { customerId: "cus_alice" },
        paymentSession: { recurrence: { action, contractId: "C1", contractType: "CIT" } },
      })
    const oneClick = await open("SUBSEQUENT_PAYMENT")
    const substitution = await open("CARD_SUBSTITUTION")
    await deactivate("C1")
    const paid = await harness.payHosted(oneClick.orderId, { cvv: CARDS.approved.cvv })
    expect(paid.body).toMatchObject({
      result: "DECLINED",
      declineReason: "the saved card's contract C1 was deactivated",
    })
    const substituted = await harness.payHosted(substitution.orderId, CARDS.approvedMc)
    expect(substituted.body.result).toBe("AUTHORIZED")
    const control = await harness.control("GET", "/contracts")
    expect(control.body.contracts).toEqual([
      expect.objectContaining({ contractId: "C1", maskedPan: "***7289", state: "deactivated" }),
    ])
  })

  it("faults apply: a lost answer (after) still deactivated it; a 503 before did not", async () => {
    await saveContract(harness, "C1")
    await saveContract(harness, "C2")
    const path = (id: string) => `/api/phoenix-0.0/psp/api/v1/contracts/${id}/deactivation`
    await harness.control("POST", "/faults", {
      match: { path: path("C1") },
      times: 1,
      phase: "after",
      action: { type: "status", status: 502 },
    })
    await harness.control("POST", "/faults", {
      match: { path: path("C2") },
      times: 1,
      action: { type: "status", status: 503 },
    })
    expect((await deactivate("C1")).status).toBe(502)
    expect((await deactivate("C2")).status).toBe(503)
    expect((await listOf("cus_alice")).body.contracts.map((c: { contractId: string }) => c.contractId)).toEqual(["C2"])
  })
})

describe("the state file", () => {
  it("keeps a deactivation across a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sim-contracts-"))
    const stateFile = join(dir, "state.json")
    const first = new SimulatorHarness()
    const second = new SimulatorHarness()
    try {
      first.sim = await startSimulator({ port: 0, control: true, stateFile })
      await saveContract(first, "C1")
      await first.gateway("POST", "/contracts/C1/deactivation")
      await first.sim.close()
      second.sim = await startSimulator({ port: 0, control: true, stateFile })
      const charge = await second.gateway("POST", "/orders/mit", {
        idempotencyKey: randomUUID(),
        body: { order: { orderId: second.newOrderId(), amount: "100", currency: "EUR" }, contractId: "C1" },
      })
      expect(charge.body.errors[0].code).toBe("SIM1006")
    } finally {
      await second.sim?.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
