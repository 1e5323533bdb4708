import { envelopeDetails } from "../http-apm-client"
import { parseApmJson } from "../int64-json"
import { ExtendedEnvelopeSchema, faultsOf, TransactionResponseSchema } from "../schemas"

const AMOUNT = { currencyCode: "EUR", vatAmount: 0, nominalAmount: 100, totalAmount: 100 }
const transaction = (extra: Record<string, unknown> = {}) => ({ amount: AMOUNT, merchant: {}, ...extra })
const answer = (extra: Record<string, unknown> = {}, inner: Record<string, unknown> = {}) => ({
  valid: true,
  response: { request: { channel: "WS_REST", transaction: transaction(inner) } },
  ...extra,
})

describe("int64 transaction ids", () => {
  it.each([
    ["above 2^53", '{"transactionId": 9007199254740993}', "9007199254740993"],
    ["the int64 maximum", '{"transactionId":9223372036854775807}', "9223372036854775807"],
    ["nested, before another member", '{"t":{"transactionId" : 12345678901234567890 ,"x":1}}', "12345678901234567890"],
  ])("keeps every digit of an id %s", (_, text, digits) => {
    expect(JSON.stringify(parseApmJson(text))).toContain(`"${digits}"`)
  })

  it.each([
    ["a short id", '{"transactionId":7000000001}', { transactionId: 7000000001 }],
    ["a long amount", '{"totalAmount":1234567890123456}', { totalAmount: 1234567890123456 }],
    [
      "an id-like text inside a string",
      '{"message":"\\"transactionId\\":12345678901234567"}',
      { message: '"transactionId":12345678901234567' },
    ],
  ])("leaves %s alone", (_, text, parsed) => {
    expect(parseApmJson(text)).toEqual(parsed)
  })

  it("reads a long id from the status answer as its digits, and refuses one that already lost them", () => {
    const read = ExtendedEnvelopeSchema.parse(parseApmJson('{"valid":true,"transactionId":9007199254740993}'))
    expect(read.transactionId).toBe("9007199254740993")
    expect(ExtendedEnvelopeSchema.safeParse({ valid: true, transactionId: 2 ** 53 + 2 }).success).toBe(false)
  })
})

describe("values the contract allows, or will", () => {
  it.each([
    ["an extendedResponseCode outside the list", { response: { extendedResponseCode: -99, responseCode: 7 } }],
    ["a channel outside the list", { response: { request: { channel: "WS_SOAP" } } }],
    [
      "empty additionalProperties members",
      { response: { request: { channel: "WS_REST", additionalProperties: [{ key: "", value: "" }] } } },
    ],
    [
      "a transition with a new state and event",
      {
        response: {
          request: {
            channel: "WS_REST",
            transaction: transaction({ transitions: [{ from: "NEW", to: "OTHER", event: "MOVE" }] }),
          },
        },
      },
    ],
  ])("reads %s", (_, body) => {
    expect(ExtendedEnvelopeSchema.safeParse({ valid: true, ...body }).success).toBe(true)
  })

  it("keeps known response codes as they are", () => {
    expect(TransactionResponseSchema.parse({ extendedResponseCode: -3 }).extendedResponseCode).toBe(-3)
  })

  it.each([
    ["a top-level state", answer({ state: "SETTLED" }), "state", ["state", "SETTLED"]],
    ["a top-level account state", answer({ accountState: "PARTIAL" }), "accountState", ["accountState", "PARTIAL"]],
  ])("sets %s outside the contract aside instead of reading it", (_, body, field, [key, raw]) => {
    const read = ExtendedEnvelopeSchema.parse(body)
    expect(read[field as "state"]).toBeUndefined()
    expect(read.unrecognized).toEqual({ [key]: raw })
  })

  it("sets an unknown state inside the transaction aside too", () => {
    const read = ExtendedEnvelopeSchema.parse(answer({}, { state: "SETTLED" }))
    const inner = read.response?.request?.transaction
    expect(inner?.state).toBeUndefined()
    expect(inner?.unrecognized).toEqual({ state: "SETTLED" })
  })

  it("still refuses a state that is not a string", () => {
    expect(ExtendedEnvelopeSchema.safeParse(answer({ state: 3 })).success).toBe(false)
  })
})

describe("the error body", () => {
  const fault = { explanationText: "INVALID_FIELD", params: { field: "consumer" } }
  it.each([["componsiteFault"], ["compositeFault"]])("reads faults under %s", (member) => {
    const body = { valid: false, error: { [member]: { faults: [fault] }, message: "refused" } }
    expect(faultsOf(ExtendedEnvelopeSchema.parse(body).error)).toEqual([fault])
    expect(envelopeDetails(body)).toEqual([
      { code: "INVALID_FIELD", description: "field=consumer" },
      { code: "refused", description: "" },
    ])
  })
})
