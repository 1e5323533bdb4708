/**
 * The card provider's money writes through the ledger, against the simulator over HTTP: what
 * happens when an answer is lost after the gateway executed the write, when Medusa then asks
 * again with a new id, when Medusa's own record cannot be read, and when money lands on an
 * order no live session owns. The ledger is the in-memory one (support/provider-cradle.ts);
 * the integration suites run the real module.
 */
import { isOrphaned } from "../../../../modules/nexi-ledger/types"
import { ledgerIssuesOf } from "../../../../staff/payment-views"
import { simulatedCardProvider } from "./support/simulated-card-provider"

const GATEWAY = "/api/phoenix-0.0/psp/api/v1"
const APPROVED = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }

const gateway = simulatedCardProvider()

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${gateway.simulator().controlUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return response.json()
}

/**
 * Every attempt of the transport (three a call) loses its answer, for every call a test makes
 * (a refund reads the order for what is left to refund, and again after a lost answer);
 * `phase` "after" means the gateway executed it.
 */
function loseAnswers(method: string, path: string, phase: "before" | "after") {
  return control("POST", "/faults", {
    match: { method, path: `${GATEWAY}${path}` },
    times: 20,
    phase,
    action: { type: "reset" },
  })
}

/** POSTs the simulator received on any operation's `kind` path ("refunds", "captures"). */
async function postsOn(kind: string): Promise<number> {
  const { requests } = (await control("GET", "/requests")) as { requests: Array<{ method: string; path: string }> }
  return requests.filter((request) => request.method === "POST" && request.path.endsWith(`/${kind}`)).length
}

async function gatewayOperations(orderId: string, type: string) {
  const response = await fetch(`${gateway.simulator().gatewayUrl}/orders/${orderId}`, {
    headers: { "x-api-key": "5d952446-9004-4023-9eae-a527a152846b", "correlation-id": crypto.randomUUID() },
  })
  const order = (await response.json()) as {
    operations: Array<{ operationType: string; operationResult: string; operationAmount: string }>
  }
  return order.operations.filter((operation) => operation.operationType === type)
}

/** Requests the simulator received with this method on a path containing `part`. */
async function requestsTo(method: string, part: string): Promise<number> {
  const { requests } = (await control("GET", "/requests")) as { requests: Array<{ method: string; path: string }> }
  return requests.filter((request) => request.method === method && request.path.includes(part)).length
}

/** A refund made in Nexi's back office, straight at the gateway: Medusa knows nothing of it. */
async function backOfficeRefund(captureOperationId: string, amountMinor: string) {
  const response = await fetch(`${gateway.simulator().gatewayUrl}/operations/${captureOperationId}/refunds`, {
    method: "POST",
    headers: {
      "x-api-key": "5d952446-9004-4023-9eae-a527a152846b",
      "correlation-id": crypto.randomUUID(),
      "idempotency-key": crypto.randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ amount: amountMinor, currency: "EUR", description: "Back office" }),
  })
  expect(response.status).toBe(200)
}

/** A capture cancelled in Nexi's back office, straight at the gateway; the cancel's operation id. */
async function backOfficeCancel(captureOperationId: string): Promise<string> {
  const response = await fetch(`${gateway.simulator().gatewayUrl}/operations/${captureOperationId}/cancels`, {
    method: "POST",
    headers: {
      "x-api-key": "5d952446-9004-4023-9eae-a527a152846b",
      "correlation-id": crypto.randomUUID(),
      "content-type": "application/json",
    },
    body: JSON.stringify({ description: "Back office" }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { operationId: string }).operationId
}

/** A session of 20.00 paid on its hosted page and authorized, with Medusa's capture rows `captures` (id: amount). */
async function authorizedPayment(sessionId: string, captures: Record<string, number> = {}) {
  const card = gateway.provider()
  const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: sessionId } })
  await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })
  const authorized = await card.authorizePayment({ data: started.data })
  for (const [id, amount] of Object.entries(captures)) gateway.cradle().captures.set(id, { id, amount })
  return { card, started, authorized }
}

/**
 * Medusa's capture `captureId` is made at the gateway, but neither its answer nor a read of the
 * order comes back: the provider throws, and Medusa deletes the capture's row.
 */
async function captureWithLostAnswer(
  card: ReturnType<typeof gateway.provider>,
  data: Record<string, unknown> | undefined,
  captureId: string,
) {
  await loseAnswers("POST", "/operations/*/captures", "after")
  await loseAnswers("GET", "/orders/*", "before")
  await expect(
    rolledBackOnError(gateway.cradle().captures, captureId, () =>
      card.capturePayment({ data, context: { idempotency_key: captureId } }),
    ),
  ).rejects.toThrow(/Do not try again/)
  await control("DELETE", "/faults")
}

/** A session paid on its hosted page, authorized, and captured for 20.00 as Medusa would. */
async function capturedPayment(sessionId: string) {
  const { card, started, authorized } = await authorizedPayment(sessionId, { [`capt_${sessionId}`]: 20 })
  const captured = await card.capturePayment({
    data: authorized.data,
    context: { idempotency_key: `capt_${sessionId}` },
  })
  return { card, orderId: started.id, data: captured.data as Record<string, unknown> }
}

/** As Medusa's payment module does: its row is recorded before the call and deleted when the provider throws. */
async function rolledBackOnError<T>(rows: Map<string, unknown>, id: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    rows.delete(id)
    throw error
  }
}

function refund(
  card: ReturnType<typeof gateway.provider>,
  data: Record<string, unknown>,
  refundId: string,
  amount: number,
) {
  gateway.cradle().refunds.set(refundId, { id: refundId, metadata: null })
  return rolledBackOnError(gateway.cradle().refunds, refundId, () =>
    card.refundPayment({ data, amount, context: { idempotency_key: refundId } }),
  )
}

describe("card money writes through the ledger", () => {
  it("answers success once when the refund's answer was lost but the gateway's record shows it", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l1")
    await loseAnswers("POST", "/operations/*/refunds", "after")

    await refund(card, data, "ref_l1", 5)

    expect(await gatewayOperations(orderId, "REFUND")).toEqual([expect.objectContaining({ operationAmount: "500" })])
    expect(gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")).toEqual([
      expect.objectContaining({ outcome: "executed", medusa_ref: "ref_l1", claimed_by: "ref_l1" }),
    ])
  })

  it("refunds once when staff press again with a new refund id after an unknown outcome", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l2")
    await loseAnswers("POST", "/operations/*/refunds", "after")
    await loseAnswers("GET", "/orders/*", "before")

    await expect(refund(card, data, "ref_l2a", 5)).rejects.toThrow(/refund of 5\.00 EUR was made\. Do not try again/)
    expect(gateway.cradle().ledger.writes.find((write) => write.medusa_ref === "ref_l2a")?.outcome).toBe("unknown")

    await control("DELETE", "/faults")
    await refund(card, data, "ref_l2b", 5)

    expect(await gatewayOperations(orderId, "REFUND")).toHaveLength(1)
    const [write] = gateway.cradle().ledger.writes.filter((row) => row.kind === "refund")
    expect(write).toMatchObject({ outcome: "executed", medusa_ref: "ref_l2a", claimed_by: "ref_l2b" })
  })

  it("sends only the rest when the new refund is larger than the one whose answer was lost", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l3")
    await loseAnswers("POST", "/operations/*/refunds", "after")
    await loseAnswers("GET", "/orders/*", "before")
    await expect(refund(card, data, "ref_l3a", 5)).rejects.toThrow(/Do not try again/)
    await control("DELETE", "/faults")

    await refund(card, data, "ref_l3b", 8)

    const amounts = (await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount).sort()
    expect(amounts).toEqual(["300", "500"])
  })

  it("says nothing was done when the answer was lost and the gateway's record shows no refund", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l4")
    await loseAnswers("POST", "/operations/*/refunds", "before")

    await expect(refund(card, data, "ref_l4", 5)).rejects.toThrow(
      /refund of 5\.00 EUR was not made\. Nothing was done; you can try again/,
    )

    expect(await gatewayOperations(orderId, "REFUND")).toHaveLength(0)
    expect(gateway.cradle().ledger.writes.find((write) => write.medusa_ref === "ref_l4")?.outcome).toBe("refused")
  })

  it("refuses a new refund while an earlier one's outcome is unknown and the gateway cannot be read", async () => {
    const { card, data } = await capturedPayment("payses_l5")
    await loseAnswers("POST", "/operations/*/refunds", "after")
    await loseAnswers("GET", "/orders/*", "before")
    await expect(refund(card, data, "ref_l5a", 5)).rejects.toThrow(/Do not try again/)
    const before = await postsOn("refunds")
    expect(before).toBe(3)

    await expect(refund(card, data, "ref_l5b", 5)).rejects.toThrow(
      /an earlier refund of 5\.00 EUR on this payment has an unknown outcome.*Nothing was sent/,
    )
    expect(await postsOn("refunds")).toBe(before)
  })

  it("refuses, sending nothing, a refund of more than the gateway has left to refund, naming both amounts", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l6")
    // A refund of 5.00 made in Nexi's back office, which Medusa has not recorded yet.
    await backOfficeRefund(String(data.capture_operation_id), "500")

    await expect(refund(card, data, "ref_l6", 20)).rejects.toThrow(
      /would refund 20\.00 EUR at the Nexi gateway, which has 15\.00 EUR left to refund on this order.*Nothing was sent/,
    )
    expect(await postsOn("refunds")).toBe(1)
    expect(gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")).toEqual([])

    await refund(card, data, "ref_l6b", 15)
    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount).sort()).toEqual([
      "1500",
      "500",
    ])
  })

  it("sends a refund that leaves Medusa's captures room without reading the order first", async () => {
    const { card, data } = await capturedPayment("payses_l7")
    const row = { id: "ref_l7", metadata: null, amount: 5 }
    gateway.cradle().refunds.set("ref_l7", { ...row, payment: { refunds: [row], captures: [{ amount: 20 }] } })
    const before = await requestsTo("GET", "/orders/")
    await card.refundPayment({ data, amount: 5, context: { idempotency_key: "ref_l7" } })
    expect(await requestsTo("GET", "/orders/")).toBe(before)
    expect(await postsOn("refunds")).toBe(1)
  })

  it("names both amounts when the gateway refuses a refund it has too little left for (a back-office refund Medusa has not recorded)", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l8")
    await backOfficeRefund(String(data.capture_operation_id), "1500")
    const row = { id: "ref_l8", metadata: null, amount: 10 }
    gateway.cradle().refunds.set("ref_l8", { ...row, payment: { refunds: [row], captures: [{ amount: 20 }] } })

    await expect(card.refundPayment({ data, amount: 10, context: { idempotency_key: "ref_l8" } })).rejects.toThrow(
      /would refund 10\.00 EUR at the Nexi gateway, which has 5\.00 EUR left to refund on this order.*The gateway refused it and nothing was refunded/,
    )
    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount)).toEqual(["1500"])
  })

  it("frees what a refund took over when it fails before sending, so the next refund takes it over instead of refunding again", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l9")
    await loseAnswers("POST", "/operations/*/refunds", "after")
    await loseAnswers("GET", "/orders/*", "before")
    await expect(refund(card, data, "ref_l9a", 5)).rejects.toThrow(/Do not try again/)
    await control("DELETE", "/faults")
    // A capture made in the back office leaves the payment's data without its operation id. The
    // first read of the order (settling the lost refund) answers; the next ones, during the same
    // outage, do not, so the refund cannot tell which capture to refund.
    const { capture_operation_id: _, ...withoutCapture } = data
    await control("POST", "/faults", {
      match: { method: "GET", path: `${GATEWAY}/orders/*` },
      times: 1,
      action: { type: "latency", ms: 0 },
    })
    await loseAnswers("GET", "/orders/*", "before")
    await expect(refund(card, withoutCapture, "ref_l9b", 8)).rejects.toThrow(/capture_operation_id/)
    await control("DELETE", "/faults")

    await refund(card, data, "ref_l9c", 5)

    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount)).toEqual(["500"])
    expect(gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")).toEqual([
      expect.objectContaining({ medusa_ref: "ref_l9a", outcome: "executed", claimed_by: "ref_l9c" }),
    ])
  })

  it("refuses to record from the gateway a refund another Medusa refund already took over", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l11")
    await loseAnswers("POST", "/operations/*/refunds", "after")
    await loseAnswers("GET", "/orders/*", "before")
    await expect(refund(card, data, "ref_l11a", 5)).rejects.toThrow(/Do not try again/)
    await control("DELETE", "/faults")
    // Staff refund again: the lost refund, made after all, is taken over and nothing is sent.
    await refund(card, data, "ref_l11b", 5)
    const [made] = (await gatewayOperations(orderId, "REFUND")) as unknown as Array<{ operationId: string }>
    expect(gateway.cradle().ledger.writes.find((write) => write.kind === "refund")?.claimed_by).toBe("ref_l11b")

    // The sync, having found the same operation missing a moment before, records it too.
    gateway.cradle().refunds.set("ref_l11s", { id: "ref_l11s", metadata: { nexi_operation_id: made.operationId } })
    await expect(
      rolledBackOnError(gateway.cradle().refunds, "ref_l11s", () =>
        card.refundPayment({ data, amount: 5, context: { idempotency_key: "ref_l11s" } }),
      ),
    ).rejects.toThrow(/already recorded in Medusa as refund ref_l11b; recording it again would count it twice/)
    expect(gateway.cradle().refunds.has("ref_l11s")).toBe(false)
  })

  it("takes over a refund the gateway made whose Medusa refund Medusa deleted afterwards, instead of refunding again", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l12")
    await refund(card, data, "ref_l12a", 5)
    // As Medusa does when its own update fails after the provider answered.
    gateway.cradle().refunds.delete("ref_l12a")

    await refund(card, data, "ref_l12b", 5)

    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount)).toEqual(["500"])
    expect(gateway.cradle().ledger.writes).toEqual([
      expect.objectContaining({ kind: "capture", claimed_by: "capt_payses_l12" }),
      expect.objectContaining({ medusa_ref: "ref_l12a", outcome: "executed", claimed_by: "ref_l12b" }),
    ])
  })

  it("refuses, sending nothing, a refund while the Medusa refund holding an earlier one cannot be read", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l14")
    await refund(card, data, "ref_l14a", 5)
    const service = gateway.cradle().refundService as { retrieve(id: string, config?: unknown): Promise<unknown> }
    const retrieve = service.retrieve
    service.retrieve = async (id, config) => {
      if (id === "ref_l14a") throw new Error("database unavailable")
      return retrieve(id, config)
    }
    try {
      await expect(refund(card, data, "ref_l14b", 5)).rejects.toThrow(
        /Medusa's refund ref_l14a, which records gateway operation \d+, could not be read .*database unavailable.*Nothing was sent/,
      )
    } finally {
      service.retrieve = retrieve
    }
    expect(await gatewayOperations(orderId, "REFUND")).toHaveLength(1)
  })

  it("leaves a refund held by the payment itself (an order cancel's) to it, and refunds the new one", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l13")
    await refund(card, data, "ref_l13a", 5)
    const [write] = gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")
    write.claimed_by = "pay_l13"

    await refund(card, data, "ref_l13b", 5)

    expect(await gatewayOperations(orderId, "REFUND")).toHaveLength(2)
    expect(write.claimed_by).toBe("pay_l13")
  })

  it("does not take an older back-office refund of the same amount for a refund whose answer was lost", async () => {
    const { card, orderId, data } = await capturedPayment("payses_l10")
    await control("POST", "/clock", { offsetMs: -60 * 60 * 1000 })
    await backOfficeRefund(String(data.capture_operation_id), "500")
    await control("POST", "/clock", { offsetMs: 0 })
    await loseAnswers("POST", "/operations/*/refunds", "before")

    await expect(refund(card, data, "ref_l10", 5)).rejects.toThrow(/was not made\. Nothing was done; you can try again/)

    expect(await gatewayOperations(orderId, "REFUND")).toHaveLength(1)
    expect(gateway.cradle().ledger.writes.find((write) => write.medusa_ref === "ref_l10")?.outcome).toBe("refused")
  })

  it("records a hosted order whose answer was lost nowhere: its page address never reached anyone, so nobody can pay on it", async () => {
    await loseAnswers("POST", "/orders/hpp", "after")
    await expect(
      gateway.provider().initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_lost" } }),
    ).rejects.toThrow(/Could not start the payment/)
    expect(gateway.cradle().ledger.attempts).toEqual([])
  })

  it("hands out no hosted page whose ledger record failed: the session fails, and no message promises a safe retry", async () => {
    gateway.cradle().ledger.openAttempt = async () => {
      throw new Error("connection terminated")
    }
    const failed = gateway
      .provider()
      .initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_nl" } })

    await expect(failed).rejects.toThrow(/Could not start the payment: connection terminated/)
    await expect(failed).rejects.not.toThrow(/try again|retry/i)
    expect(await gateway.postCount("/orders/hpp")).toBe(1)
  })

  it("records each hosted order with its token's hash before Medusa hears of it, and moves it to the paid watch once Medusa holds the payment", async () => {
    const { orderId } = await capturedPayment("payses_w1")
    expect(gateway.cradle().ledger.attempts).toEqual([
      expect.objectContaining({
        gateway_ref: orderId,
        session_id: "payses_w1",
        amount_minor: "2000",
        state: "paid",
        checks: 0,
        next_check_at: expect.any(Date),
      }),
    ])
    expect(gateway.cradle().ledger.attempts[0].security_token_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it("refuses a capture whose Medusa record cannot be read, and sends nothing", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_c1" } })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })
    const authorized = await card.authorizePayment({ data: started.data })

    await expect(
      card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_missing" } }),
    ).rejects.toThrow(/the Medusa capture capt_missing could not be read .*nothing was sent/)
    expect(await postsOn("captures")).toBe(0)
  })

  it("captures once when the capture's answer was lost and Medusa captures again with a new id", async () => {
    const { card, started, authorized } = await authorizedPayment("payses_c2", { capt_a: 12.5, capt_b: 12.5 })
    await captureWithLostAnswer(card, authorized.data, "capt_a")

    const captured = await card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_b" } })

    expect(captured.data).toMatchObject({ status: "captured" })
    expect(await gatewayOperations(started.id, "CAPTURE")).toEqual([
      expect.objectContaining({ operationAmount: "1250" }),
    ])
  })

  it("captures again, rather than taking it over, a lost capture that the back office cancelled since", async () => {
    const { card, started, authorized } = await authorizedPayment("payses_c3", { capt_c3a: 20, capt_c3b: 20 })
    await captureWithLostAnswer(card, authorized.data, "capt_c3a")
    // The back office cancels the lost capture before Medusa records it.
    const [made] = (await gatewayOperations(started.id, "CAPTURE")) as unknown as Array<{ operationId: string }>
    const cancelId = await backOfficeCancel(made.operationId)

    const captured = await card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_c3b" } })

    expect(captured.data).toMatchObject({ status: "captured" })
    expect(captured.data?.capture_operation_id).not.toBe(made.operationId)
    expect(await gatewayOperations(started.id, "CAPTURE")).toHaveLength(2)
    expect(gateway.cradle().ledger.writes.filter((write) => write.kind === "capture")).toEqual([
      expect.objectContaining({ medusa_ref: "capt_c3a", outcome: "executed", claimed_by: cancelId }),
      expect.objectContaining({ medusa_ref: "capt_c3b", outcome: "executed", claimed_by: "capt_c3b" }),
    ])
  })

  it("captures again a capture whose Medusa capture Medusa deleted afterwards, once the back office cancelled it", async () => {
    const { card, started, authorized } = await authorizedPayment("payses_c4", { capt_c4a: 20, capt_c4b: 20 })
    await card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_c4a" } })
    // As Medusa does when its own update fails after the provider answered.
    gateway.cradle().captures.delete("capt_c4a")
    const [made] = (await gatewayOperations(started.id, "CAPTURE")) as unknown as Array<{ operationId: string }>
    const cancelId = await backOfficeCancel(made.operationId)

    const captured = await card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_c4b" } })

    expect(captured.data?.capture_operation_id).not.toBe(made.operationId)
    expect(await gatewayOperations(started.id, "CAPTURE")).toHaveLength(2)
    expect(gateway.cradle().ledger.writes.filter((write) => write.kind === "capture")).toEqual([
      expect.objectContaining({ medusa_ref: "capt_c4a", claimed_by: cancelId }),
      expect.objectContaining({ medusa_ref: "capt_c4b", claimed_by: "capt_c4b" }),
    ])
  })

  it("cancels a capture once when two cancels of the same payment race, though cancels carry no idempotency key", async () => {
    const { card, orderId, data } = await capturedPayment("payses_r1")
    // The first cancel to reach the gateway waits there; the second overtakes it and is made,
    // so the first is refused ("already cancelled") although the cancel stands.
    await control("POST", "/faults", {
      match: { method: "POST", path: `${GATEWAY}/operations/*/cancels` },
      times: 1,
      action: { type: "latency", ms: 400 },
    })

    const cancel = () => card.cancelPayment({ data, context: { idempotency_key: "pay_r1" } })
    const results = await Promise.allSettled([cancel(), cancel()])

    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"])
    expect(await gatewayOperations(orderId, "CANCEL")).toHaveLength(1)
    // Nothing fell back to refunding the cancelled capture.
    expect(
      (await gatewayOperations(orderId, "REFUND")).filter((operation) => operation.operationResult !== "VOIDED"),
    ).toEqual([])
    expect(gateway.cradle().ledger.writes.filter((write) => write.kind === "cancel_capture")).toEqual([
      expect.objectContaining({ outcome: "executed", gateway_operation_id: expect.any(String) }),
    ])
  })

  it("does not answer a cancel as done while the capture's cancel is still under way, and voids on the next try", async () => {
    const { card, orderId, data } = await capturedPayment("payses_r2")
    const headers = { "x-api-key": "5d952446-9004-4023-9eae-a527a152846b", "correlation-id": crypto.randomUUID() }
    const before = await (await fetch(`${gateway.simulator().gatewayUrl}/orders/${orderId}`, { headers })).json()
    // The gateway accepts the cancel but has not settled it when the plugin reads the order again.
    const underWay = {
      ...before,
      operations: [
        ...before.operations,
        {
          operationId: "cancel-under-way",
          operationType: "CANCEL",
          operationResult: "PENDING",
          operationAmount: "2000",
          operationCurrency: "EUR",
          cancelledOperationId: data.capture_operation_id,
          operationTime: new Date().toISOString(),
        },
      ],
    }
    await control("POST", "/faults", {
      match: { method: "GET", path: `${GATEWAY}/orders/*` },
      times: 1,
      action: { type: "latency", ms: 0 },
    })
    await control("POST", "/faults", {
      match: { method: "GET", path: `${GATEWAY}/orders/*` },
      times: 1,
      action: { type: "status", status: 200, body: underWay },
    })
    const cancel = () => card.cancelPayment({ data, context: { idempotency_key: "pay_r2" } })

    await expect(cancel()).rejects.toThrow(/accepted the cancel of capture .* but not finished it.*Try again/)
    expect(await requestsTo("POST", "/refunds")).toBe(0)

    await control("DELETE", "/faults")
    await expect(cancel()).resolves.toMatchObject({ data: expect.objectContaining({ status: "canceled" }) })
    expect(await gatewayOperations(orderId, "CANCEL")).toHaveLength(1)
    expect((await gatewayOperations(orderId, "VOID")).map((operation) => operation.operationResult)).toEqual(["VOIDED"])
  })

  it("voids once when the void's answer was lost, and again not when Medusa cancels again", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_v1" } })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })
    const authorized = await card.authorizePayment({ data: started.data })
    await loseAnswers("POST", "/operations/*/refunds", "after")

    await card.cancelPayment({ data: authorized.data, context: { idempotency_key: "pay_v1" } })
    await card.cancelPayment({ data: authorized.data, context: { idempotency_key: "pay_v1" } })

    expect(await postsOn("refunds")).toBe(3)
    expect((await gatewayOperations(started.id, "VOID")).map((operation) => operation.operationResult)).toEqual([
      "VOIDED",
    ])
    expect(gateway.cradle().ledger.writes).toEqual([expect.objectContaining({ kind: "void", outcome: "executed" })])
  })

  it("releases an authorization on a hosted order the cart replaced, and leaves the new one payable", async () => {
    const card = gateway.provider()
    const first = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_r1" } })
    const replaced = await card.updatePayment({
      amount: 29.89,
      currency_code: "eur",
      data: first.data as Record<string, unknown>,
    })
    gateway.cradle().sessions.set("payses_r1", { id: "payses_r1", status: "pending", data: replaced.data })
    await control("POST", `/hpp/${first.id}/pay`, { ...APPROVED, awaitNotification: false })

    const result = await gateway.sync().attempt(first.id)

    expect(result).toBe("unchanged")
    expect((await gatewayOperations(first.id, "VOID")).map((operation) => operation.operationResult)).toEqual([
      "VOIDED",
    ])
    const attempt = gateway.cradle().ledger.attempts.find((row) => row.gateway_ref === first.id)
    expect(attempt).toMatchObject({ state: "released", note: expect.stringMatching(/voided automatically/) })
    expect(gateway.cradle().ledger.attempts.find((row) => row.gateway_ref === replaced.data?.order_id)?.state).toBe(
      "open",
    )
  })

  it("releases a payment on an attempt the ledger superseded although its session still names it (a cancelled payment link)", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_r3" } })
    gateway.cradle().sessions.set("payses_r3", { id: "payses_r3", status: "canceled", data: started.data })
    await gateway
      .cradle()
      .ledger.supersedeAttempts("payses_r3", undefined, "a payment link that was replaced or cancelled")
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })

    await expect(gateway.sync().attempt(started.id)).resolves.toBe("unchanged")

    expect(gateway.applied()).toEqual([])
    const attempt = gateway.cradle().ledger.attempts.find((row) => row.gateway_ref === started.id)
    expect(attempt).toMatchObject({ state: "released", note: expect.stringMatching(/voided automatically/) })
  })

  it("releases money paid on the order of a deleted session when its genuine notification arrives", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_r2" } })
    await card.deletePayment({ data: started.data as Record<string, unknown> })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED })
    const { notifications } = (await control("GET", "/notifications")) as {
      notifications: Array<{ body: { operation: { orderId: string } } }>
    }
    const notification = notifications.find((record) => record.body.operation.orderId === started.id)

    const result = await gateway
      .sync()
      .notification({ data: notification?.body as Record<string, unknown>, rawData: Buffer.from(""), headers: {} })

    expect(result).toBe("unchanged")
    expect((await gatewayOperations(started.id, "VOID")).map((operation) => operation.operationResult)).toEqual([
      "VOIDED",
    ])
    expect(gateway.cradle().ledger.attempts[0]).toMatchObject({
      state: "released",
      note: expect.stringMatching(/session was deleted/),
    })
  })

  it("releases nothing while Medusa's session record cannot be read: the payment may be a live session's", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_r5" } })
    await card.deletePayment({ data: started.data as Record<string, unknown> })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })
    const before = { ...gateway.cradle().ledger.attempts[0] }
    const sessions = gateway.cradle().paymentSessionService as { retrieve: (id: string) => Promise<unknown> }
    sessions.retrieve = async () => {
      throw new Error("connection terminated")
    }

    await expect(gateway.sync().attempt(started.id)).rejects.toThrow(/connection terminated/)

    expect(await gatewayOperations(started.id, "VOID")).toEqual([])
    expect(gateway.cradle().ledger.writes).toEqual([])
    expect(gateway.cradle().ledger.attempts[0]).toEqual(before)
  })

  it("releases once when the release's answer was lost: settled from the gateway's record, and the next read sends nothing and leaves it released", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_r4" } })
    await card.deletePayment({ data: started.data as Record<string, unknown> })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })
    await loseAnswers("POST", "/operations/*/refunds", "after")

    await gateway.sync().attempt(started.id)
    await control("DELETE", "/faults")
    await gateway.sync().attempt(started.id)

    expect((await gatewayOperations(started.id, "VOID")).map((operation) => operation.operationResult)).toEqual([
      "VOIDED",
    ])
    expect(gateway.cradle().ledger.writes).toEqual([
      expect.objectContaining({ kind: "void", origin: "release", outcome: "executed" }),
    ])
    expect(gateway.cradle().ledger.attempts[0]).toMatchObject({
      state: "released",
      note: expect.stringMatching(/voided automatically/),
    })
  })

  it("refunds, rather than voids, a released payment that was captured at once (IMPLICIT)", async () => {
    const card = gateway.provider({ captureType: "IMPLICIT" })
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_r3" } })
    await card.deletePayment({ data: started.data as Record<string, unknown> })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })

    await gateway.sync().attempt(started.id)

    expect((await gatewayOperations(started.id, "REFUND")).map((operation) => operation.operationAmount)).toEqual([
      "2000",
    ])
    expect(gateway.cradle().ledger.attempts[0]).toMatchObject({
      state: "released",
      note: expect.stringMatching(/refunded automatically/),
    })
  })
})

/**
 * A process killed mid-call leaves Medusa's capture or refund row standing (its rollback runs
 * in a `catch` of the same process), with the ledger's write never settled. Here the call
 * ends with an unknown outcome and the row is left where Medusa would have deleted it.
 */
describe("a write whose Medusa row outlived the call", () => {
  const refundRequests = async () => {
    const { requests } = (await control("GET", "/requests")) as {
      requests: Array<{ method: string; path: string; idempotencyKey?: string; status?: number }>
    }
    return requests.filter((request) => request.method === "POST" && request.path.endsWith("/refunds"))
  }

  /** The call dies with the outcome unknown and Medusa's row kept, as a SIGKILL leaves them. */
  async function refundCutOff(
    card: ReturnType<typeof gateway.provider>,
    data: Record<string, unknown>,
    refundId: string,
    phase: "before" | "after",
  ) {
    gateway.cradle().refunds.set(refundId, { id: refundId, metadata: null })
    await loseAnswers("POST", "/operations/*/refunds", phase)
    await loseAnswers("GET", "/orders/*", "before")
    await expect(card.refundPayment({ data, amount: 5, context: { idempotency_key: refundId } })).rejects.toThrow(
      /Do not try again/,
    )
    await control("DELETE", "/faults")
  }

  it("is that row's when the gateway made it: the next refund of the same amount is sent, and each write is its own row's", async () => {
    const { card, orderId, data } = await capturedPayment("payses_k1")
    await refundCutOff(card, data, "ref_k1a", "after")

    await refund(card, data, "ref_k1b", 5)

    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount)).toEqual([
      "500",
      "500",
    ])
    const writes = gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")
    expect(writes.map((write) => [write.medusa_ref, write.outcome, write.claimed_by])).toEqual([
      ["ref_k1a", "executed", "ref_k1a"],
      ["ref_k1b", "executed", "ref_k1b"],
    ])
  })

  it("is sent again under its own key when the gateway never made it", async () => {
    const { card, orderId, data } = await capturedPayment("payses_k2")
    await refundCutOff(card, data, "ref_k2a", "before")
    const [lost] = gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")

    await refund(card, data, "ref_k2b", 5)

    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount)).toEqual([
      "500",
      "500",
    ])
    const executed = (await refundRequests()).filter((request) => request.status === 200)
    expect(executed[0].idempotencyKey).toBe(lost.idempotency_key)
    expect(gateway.cradle().ledger.writes.find((write) => write.id === lost.id)).toMatchObject({
      outcome: "executed",
      claimed_by: "ref_k2a",
    })
  })

  it("is flagged to staff and logged when the gateway refuses to make it again", async () => {
    const warnings: string[] = []
    gateway.cradle().logger = { warn: (message: string) => warnings.push(message), info() {}, error() {}, debug() {} }
    const { card, data } = await capturedPayment("payses_k3")
    await refundCutOff(card, data, "ref_k3a", "before")
    await control("POST", "/faults", {
      match: { method: "POST", path: `${GATEWAY}/operations/*/refunds` },
      times: 1,
      action: { type: "status", status: 400, body: { errors: [{ code: "PS0027", description: "refused" }] } },
    })

    await refund(card, data, "ref_k3b", 5)

    const lost = gateway.cradle().ledger.writes.find((write) => write.medusa_ref === "ref_k3a")
    expect(lost).toMatchObject({ outcome: "refused", claimed_by: "ref_k3a" })
    expect(
      ledgerIssuesOf(gateway.cradle().ledger.writes, new Date()).map((issue) => [issue.problem, issue.write_id]),
    ).toEqual([["refused_with_record", lost?.id]])
    expect(warnings.filter((warning) => warning.includes("ref_k3a"))).toEqual([
      expect.stringMatching(/Medusa refund ref_k3a \(refund of 5\.00 EUR\) stands, but the gateway refused/),
    ])
  })

  it("stays unknown, and is sent at the next write, when it never reaches the gateway when sent again either", async () => {
    const { card, orderId, data } = await capturedPayment("payses_k5")
    await refundCutOff(card, data, "ref_k5a", "before")
    const [lost] = gateway.cradle().ledger.writes.filter((write) => write.kind === "refund")
    await loseAnswers("POST", "/operations/*/refunds", "before")

    // No refusal came from the gateway: nothing was sent for the new refund, the cut-off one waits.
    await expect(refund(card, data, "ref_k5b", 3)).rejects.toThrow(/refund of 5\.00 EUR was not made/)
    expect(gateway.cradle().ledger.writes.find((write) => write.id === lost.id)).toMatchObject({ outcome: "unknown" })
    await control("DELETE", "/faults")
    await refund(card, data, "ref_k5c", 3)

    expect((await gatewayOperations(orderId, "REFUND")).map((operation) => operation.operationAmount)).toEqual([
      "500",
      "300",
    ])
    expect(gateway.cradle().ledger.writes.find((write) => write.id === lost.id)).toMatchObject({
      outcome: "executed",
      claimed_by: "ref_k5a",
    })
  })

  it("refuses the next refund, sending nothing, while the earlier write's Medusa row cannot be read", async () => {
    const { card, data } = await capturedPayment("payses_k4")
    await refundCutOff(card, data, "ref_k4a", "after")
    const rows = gateway.cradle().refunds
    gateway.cradle().refundService = {
      async retrieve(id: string) {
        if (id === "ref_k4a") throw new Error("connection terminated")
        return rows.get(id)
      },
    }
    const sent = (await refundRequests()).length

    await expect(refund(gateway.provider(), data, "ref_k4b", 5)).rejects.toThrow(
      /the Medusa record of an earlier refund of 5\.00 EUR on this payment could not be read .*Nothing was sent/,
    )
    expect(await refundRequests()).toHaveLength(sent)
  })

  it("is a capture's own when its row stands: a later read of the order records nothing twice", async () => {
    const card = gateway.provider()
    const started = await card.initiatePayment({ amount: 20, currency_code: "eur", data: { session_id: "payses_k5" } })
    await control("POST", `/hpp/${started.id}/pay`, { ...APPROVED, awaitNotification: false })
    const authorized = await card.authorizePayment({ data: started.data })
    gateway.cradle().captures.set("capt_k5", { id: "capt_k5", amount: 5 })
    await loseAnswers("POST", "/operations/*/captures", "after")
    await loseAnswers("GET", "/orders/*", "before")
    await expect(
      card.capturePayment({ data: authorized.data, context: { idempotency_key: "capt_k5" } }),
    ).rejects.toThrow(/Do not try again/)
    await control("DELETE", "/faults")

    gateway.cradle().sessions.set("payses_k5", { id: "payses_k5", status: "authorized", data: authorized.data })

    // What the job's read does; before, it found the capture unclaimed and recorded it a second time.
    await gateway.sync().attempt(started.id)

    expect(gateway.cradle().ledger.writes).toEqual([
      expect.objectContaining({ kind: "capture", outcome: "executed", claimed_by: "capt_k5" }),
    ])
    expect(isOrphaned(gateway.cradle().ledger.writes[0])).toBe(false)
  })
})
