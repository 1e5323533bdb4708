/**
 * Saved cards through the card provider, against the simulator over HTTP: the choices a
 * session may make (save_card, payment_method_id), who may make them, what the gateway is
 * asked (recurrence), when a card becomes usable, and the account-holder methods Medusa calls.
 * The ledger is the in-memory one; integration-tests/http/saved-cards.spec.ts runs the module.
 */
import { endContract } from "../../../../core/card/contract-end"
import type { GatewayClient } from "../../../../gateway/gateway-client"
import type { HppRequest } from "../../../../gateway/schemas"
import { DEACTIVATION_KIND } from "../../../../modules/nexi-ledger/types"
import { simulatedCardProvider } from "./support/simulated-card-provider"

const APPROVED = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const DECLINED = { pan: "5515931855858729", expiryDate: "1230", cvv: "663" }

const gateway = simulatedCardProvider()

async function control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway.simulator().controlUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await response.json()) as Record<string, unknown>
}

/** The hosted-order bodies the providers of this test sent (the simulator logs no bodies: they may hold secrets). */
let sentHostedOrders: HppRequest[] = []
beforeEach(() => {
  sentHostedOrders = []
})

/** A provider whose gateway client records each hosted-order body before sending it unchanged. */
function provider() {
  const made = gateway.provider()
  const client = (made as unknown as { gateway: { createHostedOrder(body: unknown): Promise<unknown> } }).gateway
  const send = client.createHostedOrder.bind(client)
  client.createHostedOrder = (body) => {
    sentHostedOrders.push(body as HppRequest)
    return send(body)
  }
  return made
}

async function lastHostedOrderBody(): Promise<HppRequest> {
  const body = sentHostedOrders.at(-1)
  if (!body) throw new Error("no hosted order was sent")
  return body
}

const holder = (ref: string) => ({ id: `acchld_${ref}`, external_id: ref, data: { customer_ref: ref } })
const customer = { id: "cus_1", email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" }

async function startSession(
  data: Record<string, unknown>,
  context: Record<string, unknown> = { customer, account_holder: holder("nxcada") },
) {
  return provider().initiatePayment({
    amount: 19.99,
    currency_code: "eur",
    data: { session_id: "payses_1", ...data },
    context,
  } as never)
}

/** Pays a session's hosted order on the simulator, then lets Medusa authorize it. */
async function payAndAuthorize(session: { data?: Record<string, unknown> }, card: Record<string, unknown> = APPROVED) {
  const data = session.data as Record<string, unknown>
  await control("POST", `/hpp/${data.order_id}/pay`, card)
  return provider().authorizePayment({ data } as never)
}

async function savedCard(): Promise<string> {
  const session = await startSession({ save_card: true })
  await payAndAuthorize(session)
  const [card] = await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)
  return card.id
}

describe("saving a card at checkout", () => {
  it("asks the gateway for a CIT contract on the account holder's customerId, and keeps the contract id off the session", async () => {
    const session = await startSession({ save_card: true })
    const body = await lastHostedOrderBody()
    expect(body.order.customerId).toBe("nxcada")
    expect(body.paymentSession.recurrence).toEqual({
      action: "CONTRACT_CREATION",
      contractId: expect.stringMatching(/^nxk[0-9a-f]{14}$/),
      contractType: "CIT",
    })
    expect(session.data).toMatchObject({ save_card: true })
    expect(JSON.stringify(session.data)).not.toContain(String(body.paymentSession.recurrence?.contractId))
  })

  it("records the card once the payment is authorized, with the circuit and masked number the gateway shows", async () => {
    const session = await startSession({ save_card: true })
    expect(await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)).toEqual([])
    const authorized = await payAndAuthorize(session)
    expect(authorized.status).toBe("authorized")
    const cards = await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)
    expect(cards).toEqual([
      {
        id: expect.stringMatching(/^nexcard_/),
        data: expect.objectContaining({ circuit: "VISA", masked_pan: expect.stringMatching(/7289$/) }),
      },
    ])
    expect(JSON.stringify(cards)).not.toContain("4999340261977289")
    // Another customer sees none of them.
    expect(await provider().listPaymentMethods({ context: { account_holder: holder("nxcbob") } } as never)).toEqual([])
  })

  it("saves nothing when the card is declined", async () => {
    const session = await startSession({ save_card: true })
    const result = await payAndAuthorize(session, DECLINED)
    expect(result.status).toBe("error")
    expect(await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)).toEqual([])
    expect(gateway.cradle().ledger.cards.map((card) => card.state)).toEqual(["failed"])
  })

  it("refuses a guest's save_card, naming the field, and opens no hosted order", async () => {
    await expect(startSession({ save_card: true }, {})).rejects.toThrow(
      /save_card: only a logged-in customer can save a card/,
    )
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("refuses save_card of the wrong type and together with payment_method_id", async () => {
    await expect(startSession({ save_card: "yes" })).rejects.toThrow(/save_card: must be true or false/)
    await expect(startSession({ save_card: true, payment_method_id: "nexcard_1" })).rejects.toThrow(
      /save_card: cannot be combined with payment_method_id/,
    )
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("asks for an MIT_UNSCHEDULED contract when the customer allows merchant charges, and records the card so", async () => {
    const session = await startSession({ save_card: true, allow_merchant_charges: true })
    const body = await lastHostedOrderBody()
    expect(body.paymentSession.recurrence).toMatchObject({
      action: "CONTRACT_CREATION",
      contractType: "MIT_UNSCHEDULED",
    })
    expect(session.data).toMatchObject({ save_card: true, allow_merchant_charges: true })
    await payAndAuthorize(session)
    const [card] = await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)
    expect(card.data).toMatchObject({ allows_merchant_charges: true })
    expect(gateway.cradle().ledger.cards.map((saved) => saved.contract_type)).toEqual(["MIT_UNSCHEDULED"])
  })

  it("keeps a card saved without consent CIT, and says so in the list", async () => {
    await savedCard()
    const [card] = await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)
    expect(card.data).toMatchObject({ allows_merchant_charges: false })
    expect(gateway.cradle().ledger.cards.map((saved) => saved.contract_type)).toEqual(["CIT"])
  })

  it("keeps the consent when a new amount moves the session to a new hosted order", async () => {
    const session = await startSession({ save_card: true, allow_merchant_charges: true })
    await provider().updatePayment({ amount: 25, currency_code: "eur", data: session.data } as never)
    expect((await lastHostedOrderBody()).paymentSession.recurrence?.contractType).toBe("MIT_UNSCHEDULED")
  })

  it("refuses allow_merchant_charges of the wrong type, or without a card being saved, naming the field", async () => {
    await expect(startSession({ save_card: true, allow_merchant_charges: "yes" })).rejects.toThrow(
      /allow_merchant_charges: must be true or false/,
    )
    await expect(startSession({ allow_merchant_charges: true })).rejects.toThrow(
      /allow_merchant_charges: only a card being saved \(save_card: true\)/,
    )
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("leaves an ordinary logged-in payment without recurrence, on the account holder's customerId", async () => {
    await startSession({})
    const body = await lastHostedOrderBody()
    expect(body.paymentSession.recurrence).toBeUndefined()
    expect(body.order.customerId).toBe("nxcada")
  })
})

describe("a card typed in XPay Build's fields", () => {
  /** What the field pages send on confirmData(), then the store's finalize, straight to the simulator. */
  async function payInFields(data: Record<string, unknown>) {
    const sim = gateway.simulator()
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      })
    const values = {
      CARD_NUMBER: APPROVED.pan,
      EXPIRATION_DATE: "12/30",
      SECURITY_CODE: APPROVED.cvv,
      CARDHOLDER_NAME: "Ada",
    }
    await post(`${sim.url}/fields/confirm`, { sid: data.build_session_id, values })
    const finalized = await post(
      `${sim.gatewayUrl}/build/finalize_payment`,
      { sessionId: data.build_session_id },
      { "x-api-key": "5d952446-9004-4023-9eae-a527a152846b", "correlation-id": crypto.randomUUID() },
    )
    expect(finalized.status).toBe(200)
  }

  it("is saved once the payment is authorized, as on the hosted page", async () => {
    const session = await startSession({ save_card: true, integration: "build" })
    await payInFields(session.data as Record<string, unknown>)
    expect((await provider().authorizePayment({ data: session.data } as never)).status).toBe("authorized")
    const cards = await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)
    expect(cards).toEqual([
      { id: expect.stringMatching(/^nexcard_/), data: expect.objectContaining({ circuit: "VISA" }) },
    ])
  })

  it("refuses a saved card with Build, naming the field: a saved card pays on the hosted page", async () => {
    const cardId = await savedCard()
    await expect(startSession({ payment_method_id: cardId, integration: "build" })).rejects.toThrow(
      /data.integration: "build" has a new card typed/,
    )
  })
})

describe("paying with a saved card", () => {
  it("opens a one-click page on the same contract, which the shopper pays with the CVV only", async () => {
    const cardId = await savedCard()
    const creation = (await control("GET", "/contracts?customerId=nxcada")) as {
      contracts: Array<{ contractId: string }>
    }
    const session = await startSession({ payment_method_id: cardId })
    const body = await lastHostedOrderBody()
    expect(body.paymentSession.recurrence).toEqual({
      action: "SUBSEQUENT_PAYMENT",
      contractId: creation.contracts[0].contractId,
      contractType: "CIT",
    })
    expect(session.data).toMatchObject({ payment_method_id: cardId, saved_card: { circuit: "VISA" } })
    const result = await payAndAuthorize(session, { cvv: "663" })
    expect(result.status).toBe("authorized")
  })

  it("refuses another customer's card with the same words as an unknown one", async () => {
    const cardId = await savedCard()
    const other = { customer: { id: "cus_2" }, account_holder: holder("nxcbob") }
    const theirs = startSession({ payment_method_id: cardId }, other)
    await expect(theirs).rejects.toThrow(`payment_method_id: there is no saved card ${cardId} for this customer.`)
    await expect(startSession({ payment_method_id: "nexcard_unknown" }, other)).rejects.toThrow(
      "payment_method_id: there is no saved card nexcard_unknown for this customer.",
    )
  })

  it("refuses a deleted card with a clear message", async () => {
    const cardId = await savedCard()
    await provider().deletePaymentMethod({
      data: { id: cardId },
      context: { account_holder: holder("nxcada") },
    } as never)
    await expect(startSession({ payment_method_id: cardId })).rejects.toThrow(
      /payment_method_id: the saved card .* was deleted/,
    )
  })

  it("keeps paying with the saved card when the cart's amount changes", async () => {
    const cardId = await savedCard()
    const session = await startSession({ payment_method_id: cardId })
    const updated = await provider().updatePayment({ amount: 25, currency_code: "eur", data: session.data } as never)
    expect((await lastHostedOrderBody()).paymentSession.recurrence?.action).toBe("SUBSEQUENT_PAYMENT")
    expect(updated.data).toMatchObject({ payment_method_id: cardId })
  })
})

describe("account holders and saved payment methods", () => {
  it("creates a holder whose gateway id is the plugin's own, never the e-mail", async () => {
    const created = await provider().createAccountHolder({ context: { customer } } as never)
    expect(created.id).toMatch(/^nxc[0-9a-f]{24}$/)
    expect(JSON.stringify(created)).not.toContain("ada@example.com")
    expect(created.data).toEqual({ customer_ref: created.id })
  })

  it("saves a card without paying: a VERIFY order of 0 that lists the card once verified, and its notification is checked", async () => {
    const wallet = provider()
    const saved = await wallet.savePaymentMethod({
      context: { account_holder: holder("nxcada"), customer },
      data: { currency_code: "eur", return_url: "https://shop.test/account" },
    } as never)
    expect(saved.data).toMatchObject({ state: "pending", hosted_page: expect.stringContaining("/hpp/") })
    const body = await lastHostedOrderBody()
    expect(body.paymentSession).toMatchObject({
      actionType: "VERIFY",
      amount: "0",
      resultUrl: "https://shop.test/account",
    })
    expect(body.paymentSession.captureType).toBeUndefined()
    expect(body.paymentSession.recurrence).toMatchObject({ action: "CONTRACT_CREATION", contractType: "CIT" })
    const paid = await control("POST", `/hpp/${body.order.orderId}/pay`, APPROVED)
    expect(paid.result).toBe("EXECUTED")
    // The notification the simulator sent went to the webhook; here the listing reads the order itself.
    const cards = await wallet.listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)
    expect(cards.map((card) => card.id)).toEqual([saved.id])
  })

  it("confirms a verification from its notification only when the security token matches", async () => {
    const wallet = provider()
    const saved = await wallet.savePaymentMethod({
      context: { account_holder: holder("nxcada"), customer },
      data: { currency_code: "eur" },
    } as never)
    const orderId = (await lastHostedOrderBody()).order.orderId
    await control("POST", `/hpp/${orderId}/pay`, APPROVED)
    // The body the gateway sent (to a webhook no one listens on here), as Medusa would hand it over.
    const { notifications } = (await control("GET", "/notifications")) as {
      notifications: Array<{ body: Record<string, unknown> }>
    }
    const body = notifications.at(-1)?.body as Record<string, unknown>
    const notify = (data: Record<string, unknown>) =>
      gateway.sync().notification({ data, rawData: JSON.stringify(data), headers: {} } as never)
    expect(await notify({ ...body, securityToken: "forged" })).toBe("unchanged")
    const card = () => gateway.cradle().ledger.cards.find((row) => row.id === saved.id)
    expect(card()?.state).toBe("pending")
    expect(await notify(body)).toBe("unchanged")
    expect(card()).toMatchObject({ state: "active", circuit: "VISA", masked_pan: expect.stringMatching(/7289$/) })
  })

  it("refuses a return URL off the storefront's origin and a currency that is not one", async () => {
    const context = { account_holder: holder("nxcada"), customer }
    await expect(
      provider().savePaymentMethod({
        context,
        data: { currency_code: "eur", return_url: "https://evil.example/" },
      } as never),
    ).rejects.toThrow(/return_url: must be a page of the storefront \(https:\/\/shop.test\)/)
    await expect(provider().savePaymentMethod({ context, data: { currency_code: "xyz" } } as never)).rejects.toThrow(
      /currency_code:/,
    )
    await expect(
      provider().savePaymentMethod({ context: { customer }, data: { currency_code: "eur" } } as never),
    ).rejects.toThrow(/account_holder:/)
    expect(await gateway.postCount("/orders/hpp")).toBe(0)
  })

  it("deletes only the holder's own card, and every card with the holder", async () => {
    const cardId = await savedCard()
    await expect(
      provider().deletePaymentMethod({ data: { id: cardId }, context: { account_holder: holder("nxcbob") } } as never),
    ).rejects.toThrow(`id: there is no saved card ${cardId} for this customer.`)
    await provider().deleteAccountHolder({ context: { account_holder: holder("nxcada") } } as never)
    expect(await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)).toEqual([])
    expect(gateway.cradle().ledger.cards[0]).toMatchObject({ state: "deleted", removed_at: expect.any(Date) })
  })
})

describe("a deleted card's contract at the gateway", () => {
  const DEACTIVATION = "/api/phoenix-0.0/psp/api/v1/contracts/*/deactivation"

  async function contractState(): Promise<unknown> {
    const { contracts } = (await control("GET", "/contracts?customerId=nxcada")) as {
      contracts: Array<{ state: string }>
    }
    return contracts.map((contract) => contract.state)
  }

  const deactivations = () => gateway.cradle().ledger.writes.filter((write) => write.kind === "contract_deactivation")

  it("is deactivated once, recorded in the ledger before it was sent", async () => {
    const cardId = await savedCard()
    expect(await contractState()).toEqual(["active"])
    await provider().deletePaymentMethod({
      data: { id: cardId },
      context: { account_holder: holder("nxcada") },
    } as never)
    expect(await contractState()).toEqual(["deactivated"])
    expect(deactivations()).toEqual([
      expect.objectContaining({ idempotency_key: `${cardId}:deactivation`, outcome: "executed", medusa_ref: cardId }),
    ])
    const contractId = gateway.cradle().ledger.cards.find((row) => row.id === cardId)?.contract_id
    expect(await gateway.postCount(`/contracts/${contractId}/deactivation`)).toBe(1)
  })

  it("ends every card's contract with the account holder", async () => {
    await savedCard()
    await provider().deleteAccountHolder({ context: { account_holder: holder("nxcada") } } as never)
    expect(await contractState()).toEqual(["deactivated"])
    expect(deactivations().map((write) => write.outcome)).toEqual(["executed"])
  })

  it("asks the gateway once for an account holder's cards when it is down, and leaves every contract to the job", async () => {
    await savedCard()
    await savedCard()
    await savedCard()
    await control("POST", "/faults", {
      match: { method: "POST", path: DEACTIVATION },
      phase: "before",
      action: { type: "reset" },
    })
    await provider().deleteAccountHolder({ context: { account_holder: holder("nxcada") } } as never)
    expect(await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)).toEqual([])
    expect(gateway.cradle().ledger.cards.map((card) => card.state)).toEqual(["deleted", "deleted", "deleted"])
    const contractIds = new Set(gateway.cradle().ledger.cards.map((card) => card.contract_id))
    const tried = new Set(
      ((await control("GET", "/requests")).requests as Array<{ method: string; path: string }>)
        .filter((request) => request.method === "POST" && request.path.endsWith("/deactivation"))
        .map((request) => request.path.split("/").at(-2)),
    )
    expect(tried.size).toBe(1)
    expect([...tried].filter((id) => id !== undefined && contractIds.has(id))).toHaveLength(1)
    expect(deactivations()).toHaveLength(3)
    expect(deactivations().filter((write) => write.outcome === "executed")).toEqual([])
    await control("DELETE", "/faults")
    expect(await contractState()).toEqual(["active", "active", "active"])
  })

  it("leaves the card deleted when the answer is lost, and a later send ends the contract", async () => {
    const cardId = await savedCard()
    // Every answer lost, the retries' and the recovery's too: the deactivation is made, but unconfirmed.
    await control("POST", "/faults", {
      match: { method: "POST", path: DEACTIVATION },
      phase: "after",
      action: { type: "reset" },
    })
    await provider().deletePaymentMethod({
      data: { id: cardId },
      context: { account_holder: holder("nxcada") },
    } as never)
    expect(await provider().listPaymentMethods({ context: { account_holder: holder("nxcada") } } as never)).toEqual([])
    expect(deactivations().map((write) => write.outcome)).toEqual(["unknown"])
    // The job's next run, a minute later, sends it again.
    const nextRun = new Date(Date.now() + 60_000)
    expect(
      await gateway.cradle().ledger.writesToRetry(DEACTIVATION_KIND, nextRun, 10, { refused: true, now: nextRun }),
    ).toHaveLength(1)
    await control("DELETE", "/faults")
    // What the job does with it (src/reconciliation/side-retries.ts): the same write, sent again.
    const made = provider() as unknown as { gateway: GatewayClient }
    const card = gateway.cradle().ledger.cards.find((row) => row.id === cardId)
    expect(await endContract({ ledger: gateway.cradle().ledger, gateway: made.gateway }, card!, "medusa")).toBe(true)
    expect(deactivations().map((write) => write.outcome)).toEqual(["executed"])
    expect(await contractState()).toEqual(["deactivated"])
    expect(await gateway.cradle().ledger.writesToRetry(DEACTIVATION_KIND, new Date(), 10, { refused: true })).toEqual(
      [],
    )
  })

  it("counts a contract the gateway never created (a card deleted before it was confirmed) as ended", async () => {
    const cardId = await savedCard()
    const card = gateway.cradle().ledger.cards.find((row) => row.id === cardId)
    await control("POST", "/reset")
    await provider().deletePaymentMethod({
      data: { id: cardId },
      context: { account_holder: holder("nxcada") },
    } as never)
    expect(deactivations()).toEqual([
      expect.objectContaining({
        gateway_ref: card?.contract_id,
        outcome: "executed",
        gateway_operation_id: "no_contract",
      }),
    ])
  })

  it("ends the contract the gateway makes after the account holder was deleted while the shopper paid", async () => {
    const session = await startSession({ save_card: true })
    await provider().deleteAccountHolder({ context: { account_holder: holder("nxcada") } } as never)
    expect(deactivations()).toEqual([expect.objectContaining({ gateway_operation_id: "no_contract" })])
    await payAndAuthorize(session)
    await payAndAuthorize(session)
    expect(await contractState()).toEqual(["deactivated"])
    const [card] = gateway.cradle().ledger.cards
    expect(card.state).toBe("deleted")
    expect(deactivations().map((write) => [write.idempotency_key, write.outcome])).toEqual([
      [`${card.id}:deactivation`, "executed"],
      [`${card.id}:deactivation-of-late-contract`, "executed"],
    ])
    expect(await gateway.postCount(`/contracts/${card.contract_id}/deactivation`)).toBe(2)
  })

  it("keeps the card offered when its deactivation cannot be recorded, and sends nothing", async () => {
    const cardId = await savedCard()
    const ledger = gateway.cradle().ledger
    ledger.requestWrite = async () => {
      throw new Error("database down")
    }
    await expect(
      provider().deletePaymentMethod({ data: { id: cardId }, context: { account_holder: holder("nxcada") } } as never),
    ).rejects.toThrow(/could not be recorded in the Nexi ledger \(database down\)\. The card is still saved/)
    expect(await contractState()).toEqual(["active"])
    expect(ledger.cards.find((row) => row.id === cardId)?.state).toBe("active")
  })
})

describe("a card to save on a hosted order the cart replaced", () => {
  it("is dropped with the old order, and the new order saves its own", async () => {
    const session = await startSession({ save_card: true })
    const updated = await provider().updatePayment({ amount: 25, currency_code: "eur", data: session.data } as never)
    const states = () => gateway.cradle().ledger.cards.map((card) => [card.gateway_ref, card.state])
    expect(states()).toEqual([
      [session.data?.order_id, "failed"],
      [updated.data?.order_id, "pending"],
    ])
    await payAndAuthorize(updated)
    expect(states()[1]).toEqual([updated.data?.order_id, "active"])
  })
})
