import { SCHEMES } from "../schemes"
import { envelopeOf, faultFields, faultsOf, makeSimulator, paymentBody, postInitialize } from "./apm-test-kit"

function withAmount(currencyCode: string, nominalAmount: number, vatAmount: number, totalAmount: number) {
  return { purchaseAmount: { currencyCode, nominalAmount, vatAmount, totalAmount } }
}

describe("APM simulator: initialize request validation", () => {
  describe("content type and body", () => {
    it.each([
      ["application/json", 202],
      ["application/json;charset=utf-8;version=2.0", 202],
      ["Application/JSON; charset=UTF-8; version=2.0", 202],
      ['application/json; version="2.0"', 202],
      ["text/plain", 400],
      ["application/x-www-form-urlencoded", 400],
      ["application/json;charset=iso-8859-1", 400],
      ["application/json;version=1.0", 400],
    ])("Content-Type %s answers %i", async (contentType, status) => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", paymentBody(), { headers: { "content-type": contentType } })
      expect(response.status).toBe(status)
      if (status === 400) expect(faultFields(response)).toEqual(["Content-Type"])
    })

    it("answers 400 when Content-Type is missing", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", paymentBody(), { headers: { "content-type": undefined } })
      expect(response.status).toBe(400)
      expect(faultsOf(response)[0]?.explanationText).toContain("Content-Type header is missing")
    })

    it("answers 400 naming the body for malformed JSON, even when the server parsed something", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", paymentBody(), { rawBody: '{"merchantId": "M-100",' })
      expect(response.status).toBe(400)
      expect(faultFields(response)).toEqual(["body"])
      expect(faultsOf(response)[0]?.explanationText).toContain("not valid JSON")
    })

    it("answers 400 for an empty body", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", undefined, { rawBody: "" })
      expect(response.status).toBe(400)
      expect(faultsOf(response)[0]?.explanationText).toBe("The request body is missing")
    })

    it("answers 400 for a JSON body that is not an object", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", [1, 2])
      expect(response.status).toBe(400)
      expect(faultFields(response)).toEqual(["body"])
    })

    it("answers 400 naming the type for an unknown transaction type", async () => {
      const { sim, changes } = makeSimulator()
      const response = await postInitialize(sim, "capture", paymentBody())
      expect(response.status).toBe(400)
      expect(faultsOf(response)).toEqual([
        {
          explanationText: "Transaction type capture is not one of payment, refund, reversal",
          params: { field: "type", type: "capture", allowed: "payment, refund, reversal" },
        },
      ])
      expect(changes()).toBe(0)
    })
  })

  describe("fields", () => {
    it("answers a 400 envelope: valid false, a message, one fault per problem, no response", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", { method: "PSP_Z", purchaseAmount: {} })
      expect(response.status).toBe(400)
      const envelope = envelopeOf(response)
      expect(envelope.valid).toBe(false)
      expect(envelope.error?.message).toBe("The request could not be validated")
      expect(envelope.response).toBeUndefined()
      expect(faultFields(response)).toEqual(
        expect.arrayContaining([
          "merchantId",
          "method",
          "purchaseAmount.currencyCode",
          "purchaseAmount.vatAmount",
          "purchaseAmount.nominalAmount",
          "purchaseAmount.totalAmount",
          "consumer",
        ]),
      )
    })

    it.each(["PSP_A_E_COM", "PSP_B", "PSP_C", "PSP_D"])(
      "accepts method %s with a currency it takes",
      async (method) => {
        const { sim } = makeSimulator()
        const currency = SCHEMES[method as keyof typeof SCHEMES].currencies[0]
        const response = await postInitialize(
          sim,
          "payment",
          paymentBody({ method, ...withAmount(currency, 100, 25, 125) }),
        )
        expect(response.status).toBe(202)
      },
    )

    it.each([
      ["consumer.consumerId", { consumer: { name: "Kari" } }],
      ["consumer.name", { consumer: { consumerId: "+4712345678", name: "" } }],
      ["purchaseAmount.vatAmount", withAmount("EUR", 100, -1, 99)],
      ["purchaseAmount.nominalAmount", withAmount("EUR", 10.5, 0, 10.5)],
      ["purchaseAmount.currencyCode", withAmount("eur", 100, 0, 100)],
      ["trigger", { trigger: "1" }],
      ["additionalProperties.0.value", { additionalProperties: [{ key: "lang", value: "" }] }],
      ["originalReference", { originalReference: null }],
    ])("answers 400 naming %s", async (field, overrides) => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", paymentBody(overrides))
      expect(response.status).toBe(400)
      expect(faultFields(response)).toContain(field)
    })

    it("answers 400 naming the amounts when totalAmount is not nominalAmount + vatAmount", async () => {
      const { sim, changes } = makeSimulator()
      const response = await postInitialize(sim, "payment", paymentBody(withAmount("EUR", 1000, 250, 1200)))
      expect(response.status).toBe(400)
      expect(faultsOf(response)).toEqual([
        {
          explanationText:
            "purchaseAmount.totalAmount must equal purchaseAmount.nominalAmount + purchaseAmount.vatAmount",
          params: {
            field: "purchaseAmount.totalAmount",
            totalAmount: "1200",
            nominalAmount: "1000",
            vatAmount: "250",
            expected: "1250",
          },
        },
      ])
      expect(changes()).toBe(0)
    })

    it("answers 400 for a zero amount", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", paymentBody(withAmount("EUR", 0, 0, 0)))
      expect(response.status).toBe(400)
      expect(faultsOf(response)[0]?.explanationText).toBe("purchaseAmount.totalAmount must be greater than zero")
    })

    it("reports every problem of a request at once", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(
        sim,
        "payment",
        paymentBody({ method: "PSP_C", ...withAmount("EUR", 100, 0, 99) }),
      )
      expect(response.status).toBe(400)
      expect(faultFields(response)).toEqual(["purchaseAmount.totalAmount", "purchaseAmount.currencyCode"])
    })
  })

  describe("currencies per scheme", () => {
    const table: [string, string[], string[]][] = [
      ["PSP_A_E_COM", ["EUR"], ["SEK", "NOK", "DKK", "USD"]],
      ["PSP_B", ["EUR", "SEK", "NOK", "DKK"], ["USD", "GBP", "JPY"]],
      ["PSP_C", ["SEK"], ["EUR", "NOK", "DKK"]],
      ["PSP_D", ["DKK", "NOK"], ["EUR", "SEK", "ISK"]],
    ]

    it("the documented table is the one the simulator applies", () => {
      expect(Object.entries(SCHEMES).map(([method, scheme]) => [method, scheme.currencies])).toEqual(
        table.map(([method, accepted]) => [method, accepted]),
      )
    })

    for (const [method, accepted, refused] of table) {
      it.each(accepted)(`${method} accepts %s`, async (currencyCode) => {
        const { sim } = makeSimulator()
        const response = await postInitialize(
          sim,
          "payment",
          paymentBody({ method, ...withAmount(currencyCode, 100, 0, 100) }),
        )
        expect(response.status).toBe(202)
      })

      it.each(refused)(`${method} refuses %s with a fault naming it`, async (currencyCode) => {
        const { sim } = makeSimulator()
        const response = await postInitialize(
          sim,
          "payment",
          paymentBody({ method, ...withAmount(currencyCode, 100, 0, 100) }),
        )
        expect(response.status).toBe(400)
        expect(faultsOf(response)).toEqual([
          {
            explanationText: `Currency ${currencyCode} is not accepted by ${method} (accepted: ${accepted.join(", ")})`,
            params: { field: "purchaseAmount.currencyCode", currencyCode, method, accepted: accepted.join(", ") },
          },
        ])
      })
    }
  })

  describe("order lines", () => {
    const line = {
      name: "Mug",
      quantity: 2,
      unitPrice: 500,
      taxRate: 2500,
      taxAmount: 250,
      netTotalAmount: 1000,
      grossTotalAmount: 1250,
    }
    const withLines = (...items: unknown[]) =>
      paymentBody({ ecr2Naa: { order: { items, amount: 1250, currency: "EUR" } } })

    it("accepts lines whose gross is net plus tax, and lines without totals", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", withLines(line, { name: "Gift wrap" }))
      expect(response.status).toBe(202)
    })

    it("answers 400 naming the line whose gross is not net plus tax", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", withLines(line, { ...line, grossTotalAmount: 1300 }))
      expect(response.status).toBe(400)
      expect(faultsOf(response)).toEqual([
        {
          explanationText: "ecr2Naa.order.items.1.grossTotalAmount must equal netTotalAmount + taxAmount",
          params: {
            field: "ecr2Naa.order.items.1.grossTotalAmount",
            grossTotalAmount: "1300",
            netTotalAmount: "1000",
            taxAmount: "250",
            expected: "1250",
          },
        },
      ])
    })

    it.each([0, -1])("answers 400 for quantity %i", async (quantity) => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", withLines({ ...line, quantity }))
      expect(response.status).toBe(400)
      expect(faultFields(response)).toEqual(["ecr2Naa.order.items.0.quantity"])
    })

    it("answers 400 for a negative line amount", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "payment", withLines({ ...line, taxAmount: -250 }))
      expect(response.status).toBe(400)
      expect(faultFields(response)).toEqual(["ecr2Naa.order.items.0.taxAmount"])
    })
  })

  describe("references that refunds and reversals need", () => {
    it("answers 400 for a refund without originalReference", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "refund", paymentBody())
      expect(response.status).toBe(400)
      expect(faultsOf(response)).toEqual([
        { explanationText: "originalReference is required for a refund", params: { field: "originalReference" } },
      ])
    })

    it("answers 400 for a reversal without terminalReference and originalReference", async () => {
      const { sim } = makeSimulator()
      const response = await postInitialize(sim, "reversal", paymentBody({ terminalReference: " " }))
      expect(response.status).toBe(400)
      expect(faultFields(response)).toEqual(["terminalReference", "originalReference"])
    })
  })
})
