import {
  bearer,
  createPayment,
  envelopeOf,
  extendedOf,
  faultsOf,
  getStatus,
  makeSimulator,
  PUBLIC_URL,
  paymentBody,
  postInitialize,
  transactionOf,
} from "./apm-test-kit"

const T0 = "2025-03-01T10:00:00.000Z"

describe("APM simulator: payments", () => {
  describe("initialize answer (202)", () => {
    it("is a valid envelope with the pending transaction, naa2Ecr and the status link", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(
        sim,
        "payment",
        paymentBody({
          terminalReference: "T-9",
          batch: 42,
          message: "Order 1001",
          ecr2Naa: { reference: "R-1", order: { reference: "order_1001", amount: 1250, currency: "EUR" } },
          additionalProperties: [{ key: "lang", value: "nb" }],
        }),
      )
      expect(response.status).toBe(202)
      const envelope = envelopeOf(response)
      expect(envelope.valid).toBe(true)
      expect(envelope.error).toBeUndefined()
      expect(envelope.response).toMatchObject({
        responseCode: -3,
        extendedResponseCode: -3,
        request: {
          channel: "WS_REST",
          additionalProperties: [{ key: "lang", value: "nb" }],
          ecr2Naa: { reference: "R-1" },
          transaction: {
            transactionId: 7000000001,
            terminalReference: "T-9",
            batch: 42,
            message: "Order 1001",
            timeStamp: T0,
            amount: { currencyCode: "EUR", nominalAmount: 1000, vatAmount: 250, totalAmount: 1250 },
            method: "PSP_B",
            state: "PENDING",
            cancel: false,
            merchant: { merchantId: "M-100" },
            consumer: { consumerId: "+4712345678", name: "Kari Nordmann" },
            order: { reference: "order_1001", amount: 1250, currency: "EUR" },
            trigger: "0",
            transitions: [
              { timeStamp: T0, to: "INITIALIZED", event: "CREATE" },
              { timeStamp: T0, from: "INITIALIZED", to: "PENDING", event: "RESEND" },
            ],
          },
        },
        naa2Ecr: {
          schemeId: "PSPB",
          ppref: "PSPB-7000000001",
          payerId: "+4712345678",
          additionalInfo: "Waiting for the consumer to approve the payment in the app",
        },
      })
      expect(envelope.response?.request?.transaction?.accountState).toBeUndefined()
      expect(envelope.response?.request?.transaction?.receipt).toBeUndefined()
      expect(envelope.nextLink).toEqual({
        rel: "status",
        type: "GET",
        uri: `${PUBLIC_URL}/apm/ms/aapay/v2/transaction/7000000001`,
        title: "Transaction status",
        params: { transactionId: "7000000001", approvalUrl: `${PUBLIC_URL}/apm/phone/7000000001` },
        rels: ["status"],
      })
    })

    it("creates a new transaction, with an increasing id, on every /initialize", async () => {
      const { sim, changes } = makeSimulator()
      const first = await postInitialize(sim, "payment", paymentBody())
      const second = await postInitialize(sim, "payment", paymentBody())
      expect(transactionOf(first).transactionId).toBe(7000000001)
      expect(transactionOf(second).transactionId).toBe(7000000002)
      expect(changes()).toBe(2)
    })
  })

  describe("status read", () => {
    it("answers 200 with the extended envelope", async () => {
      const { sim } = makeSimulator()
      const transactionId = await createPayment(sim, { trigger: "2" })
      const response = await getStatus(sim, transactionId)
      expect(response.status).toBe(200)
      const envelope = extendedOf(response)
      expect(envelope).toMatchObject({
        valid: true,
        transactionId,
        timeStamp: T0,
        state: "PENDING",
        payerId: "+4712345678",
        qrTrigger: "1",
        naa2Ecr: { schemeId: "PSPB", ppref: `PSPB-${transactionId}`, payerId: "+4712345678" },
        response: { responseCode: -3, request: { transaction: { transactionId, state: "PENDING" } } },
        nextLink: { rel: "status", params: { transactionId: String(transactionId) } },
      })
      expect(envelope.accountState).toBeUndefined()
    })

    it("gives qrTrigger 0 for a manual payment", async () => {
      const { sim } = makeSimulator()
      const transactionId = await createPayment(sim)
      expect(extendedOf(await getStatus(sim, transactionId)).qrTrigger).toBe("0")
    })

    it("answers 404 with an envelope for an unknown transaction", async () => {
      const { sim } = makeSimulator()
      const response = await getStatus(sim, 7000000099)
      expect(response.status).toBe(404)
      expect(envelopeOf(response)).toEqual({
        valid: false,
        error: {
          message: "Requested transaction not found",
          componsiteFault: {
            faults: [
              {
                explanationText: "No transaction 7000000099",
                params: { field: "transactionId", transactionId: "7000000099" },
              },
            ],
          },
        },
      })
    })

    it("answers 404 for a transaction of another merchantId", async () => {
      const { sim } = makeSimulator()
      const transactionId = await createPayment(sim)
      expect((await getStatus(sim, transactionId, "merchantId=M-100")).status).toBe(200)
      expect((await getStatus(sim, transactionId, "merchantId=M-200")).status).toBe(404)
    })

    it("answers 404 for a transaction created with other credentials", async () => {
      const other = makeSimulator({ consumerKey: "other-key", consumerSecret: "other-secret" })
      const created = await postInitialize(other.sim, "payment", paymentBody(), {
        headers: { authorization: bearer("other-key", "other-secret") },
      })
      expect(created.status).toBe(202)
      const { sim } = makeSimulator()
      sim.restore(other.sim.snapshot())
      expect((await getStatus(sim, 7000000001)).status).toBe(404)
    })

    it.each(["abc", "12x", "-5", "1.5"])("answers 400 for the non-numeric id %s", async (id) => {
      const { sim } = makeSimulator()
      const response = await getStatus(sim, id)
      expect(response.status).toBe(400)
      expect(faultsOf(response)[0]?.params).toEqual({ field: "transactionId", transactionId: id })
    })
  })

  describe("consumerId rules", () => {
    it("…0000: the scheme refuses the consumer at initialize: 201, valid false, transaction REJECTED", async () => {
      const { sim, changes } = makeSimulator()
      const response = await postInitialize(
        sim,
        "payment",
        paymentBody({ consumer: { consumerId: "+4799990000", name: "No Money" } }),
      )
      expect(response.status).toBe(201)
      const envelope = envelopeOf(response)
      expect(envelope.valid).toBe(false)
      expect(envelope.error).toEqual({
        message: "The transaction was created but rejected; no further processing is possible",
        componsiteFault: {
          faults: [
            {
              explanationText: "The scheme refused the consumer",
              params: { transactionId: "7000000001", state: "REJECTED" },
            },
          ],
        },
      })
      expect(envelope.response?.responseCode).toBe(-1)
      expect(envelope.response?.naa2Ecr?.additionalInfo).toBe("The scheme refused the consumer")
      expect(envelope.response?.request?.transaction).toMatchObject({
        state: "REJECTED",
        accountState: "ROLLBACK",
        transitions: [
          { to: "INITIALIZED", event: "CREATE" },
          { from: "INITIALIZED", to: "REJECTED", event: "REJECT" },
        ],
      })
      expect(envelope.nextLink?.params).toEqual({ transactionId: "7000000001" })
      expect(changes()).toBe(1)
      const status = extendedOf(await getStatus(sim, 7000000001))
      expect(status).toMatchObject({ valid: true, state: "REJECTED", accountState: "ROLLBACK" })
    })

    it.each([
      ["+4790001111", "FINALIZED", "COMMIT", 0, ["CREATE", "RESEND", "AUTHORIZE", "FINALIZE"]],
      ["+4790002222", "REJECTED", "ROLLBACK", -1, ["CREATE", "RESEND", "REJECT"]],
      ["+4790009999", "TIMEDOUT", "ROLLBACK", -2, ["CREATE", "RESEND", "TIMEOUT"]],
    ])(
      "%s: the consumer decides at the first status read, which shows %s",
      async (consumerId, state, accountState, code, events) => {
        const { sim, changes, tick } = makeSimulator()
        const transactionId = await createPayment(sim, { consumer: { consumerId, name: "Scripted" } })
        const firstRead = extendedOf(await getStatus(sim, transactionId))
        tick(5)
        const secondRead = extendedOf(await getStatus(sim, transactionId))
        expect(firstRead).toMatchObject({ state, accountState })
        expect(secondRead).toMatchObject({ state, accountState, response: { responseCode: code } })
        expect(secondRead.response?.request?.transaction?.transitions?.map((transition) => transition.event)).toEqual(
          events,
        )
        expect(changes()).toBe(2)
      },
    )

    it("another consumerId stays PENDING until someone decides", async () => {
      const { sim } = makeSimulator()
      const transactionId = await createPayment(sim, { consumer: { consumerId: "+4790001234", name: "Waiting" } })
      for (let read = 0; read < 3; read++) expect(extendedOf(await getStatus(sim, transactionId)).state).toBe("PENDING")
    })

    it("a decision on the phone before the first read wins over the rule", async () => {
      const { sim } = makeSimulator()
      const transactionId = await createPayment(sim, { consumer: { consumerId: "+4790001111", name: "Scripted" } })
      sim.control("reject", String(transactionId))
      expect(extendedOf(await getStatus(sim, transactionId)).state).toBe("REJECTED")
    })
  })

  describe("control", () => {
    it("approve: AUTHORIZED then FINALIZED with COMMIT and a receipt, both transitions recorded", async () => {
      const { sim, changes, tick } = makeSimulator()
      const transactionId = await createPayment(sim)
      tick(30)
      const response = sim.control("approve", String(transactionId))
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        ok: true,
        action: "approve",
        transactionId,
        previousState: "PENDING",
        state: "FINALIZED",
        accountState: "COMMIT",
        transitions: [
          { timeStamp: T0, to: "INITIALIZED", event: "CREATE" },
          { timeStamp: T0, from: "INITIALIZED", to: "PENDING", event: "RESEND" },
          { timeStamp: "2025-03-01T10:00:30.000Z", from: "PENDING", to: "AUTHORIZED", event: "AUTHORIZE" },
          { timeStamp: "2025-03-01T10:00:30.000Z", from: "AUTHORIZED", to: "FINALIZED", event: "FINALIZE" },
        ],
      })
      expect(changes()).toBe(2)
      const status = extendedOf(await getStatus(sim, transactionId))
      expect(status).toMatchObject({ state: "FINALIZED", accountState: "COMMIT", response: { responseCode: 0 } })
      expect(status.receipt).toEqual({
        receiptId: 500001,
        timeStamp: "2025-03-01T10:00:30.000Z",
        receiptClass: "PAYMENT",
        receiptData: [
          "Merchant M-100",
          `PSP_B transaction ${transactionId}`,
          "Total 12.50 EUR",
          "of which VAT 2.50 EUR",
        ],
      })
      expect(status.naa2Ecr?.additionalInfo).toBe("Approved by the consumer")
      expect(status.nextLink?.params).toEqual({ transactionId: String(transactionId) })
    })

    it.each([
      ["reject", "REJECTED", "REJECT", -1],
      ["expire", "TIMEDOUT", "TIMEOUT", -2],
    ] as const)("%s: %s with ROLLBACK", async (action, state, event, code) => {
      const { sim } = makeSimulator()
      const transactionId = await createPayment(sim)
      const response = sim.control(action, String(transactionId))
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({
        ok: true,
        action,
        previousState: "PENDING",
        state,
        accountState: "ROLLBACK",
      })
      const status = extendedOf(await getStatus(sim, transactionId))
      expect(status).toMatchObject({ state, accountState: "ROLLBACK", response: { responseCode: code } })
      expect(status.receipt).toBeUndefined()
      expect(status.response?.request?.transaction?.transitions?.at(-1)).toMatchObject({
        from: "PENDING",
        to: state,
        event,
      })
    })

    it("answers 409 with the current state when the payment is no longer pending, and changes nothing", async () => {
      const { sim, changes } = makeSimulator()
      const transactionId = await createPayment(sim)
      sim.control("approve", String(transactionId))
      const before = changes()
      const response = sim.control("expire", String(transactionId))
      expect(response.status).toBe(409)
      expect(response.body).toEqual({
        ok: false,
        action: "expire",
        transactionId: String(transactionId),
        state: "FINALIZED",
        error: `Transaction ${transactionId} is FINALIZED; only a PENDING payment can be expired`,
      })
      expect(changes()).toBe(before)
    })

    it("answers 404 for an unknown transaction and 400 for a non-numeric id", () => {
      const { sim } = makeSimulator()
      expect(sim.control("approve", "7000000123")).toMatchObject({ status: 404, body: { ok: false } })
      expect(sim.control("approve", "abc")).toMatchObject({ status: 400, body: { ok: false } })
    })

    it("answers 400 for an action it does not know", () => {
      const { sim } = makeSimulator()
      const response = sim.control("capture" as "approve", "7000000001")
      expect(response).toMatchObject({
        status: 400,
        body: { ok: false, error: expect.stringContaining("Unknown action") },
      })
    })
  })
})
