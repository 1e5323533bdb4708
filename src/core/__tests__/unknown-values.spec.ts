import fc from "fast-check"
import { ExtendedEnvelopeSchema, TRANSACTION_STATES } from "../../apm/schemas"
import { NotificationSchema } from "../../gateway/schemas"
import { readMobileTransaction } from "../mobile/mobile-transaction"
import { requireHundredthsCurrency } from "../mobile/purchase-amounts"
import { parseNotificationBody } from "../notification-body"

const PAID = new Set(["authorized", "captured"])
const SUCCESS_STATES = new Set(["AUTHORIZED", "RESERVED", "FINALIZED", "REPORTED"])

describe("unknown states never read as paid", () => {
  it.each([
    [
      "an unknown top-level state over a known paid one inside",
      {
        valid: true,
        state: "SETTLED",
        response: {
          request: {
            channel: "WS_REST",
            transaction: {
              amount: { currencyCode: "EUR", vatAmount: 0, nominalAmount: 1, totalAmount: 1 },
              merchant: {},
              state: "FINALIZED",
            },
          },
        },
      },
      "state=SETTLED",
    ],
    [
      "a finalized transaction with an unknown account state",
      { valid: true, state: "FINALIZED", accountState: "PARTIAL" },
      "accountState=PARTIAL",
    ],
  ])("%s reads as pending, naming the value", (_, body, named) => {
    const state = readMobileTransaction(ExtendedEnvelopeSchema.parse(body))
    expect(state.status).toBe("pending")
    expect(state.unrecognized).toBe(named)
    expect(state.reason).toMatch(/does not know/)
  })

  it("property: any envelope whose states are not success states never yields authorized or captured", () => {
    const notSuccess = fc
      .oneof(fc.constantFrom(...TRANSACTION_STATES.filter((s) => !SUCCESS_STATES.has(s))), fc.string())
      .filter((s) => !SUCCESS_STATES.has(s))
    const account = fc.option(fc.oneof(fc.constantFrom("COMMIT", "ROLLBACK"), fc.string()), { nil: undefined })
    fc.assert(
      fc.property(notSuccess, fc.option(notSuccess, { nil: undefined }), account, (top, inner, accountState) => {
        const body = {
          valid: true,
          state: top,
          accountState,
          response: {
            request: {
              channel: "WS_REST",
              transaction: {
                amount: { currencyCode: "EUR", vatAmount: 0, nominalAmount: 1, totalAmount: 1 },
                merchant: {},
                state: inner,
              },
            },
          },
        }
        const parsed = ExtendedEnvelopeSchema.safeParse(body)
        if (parsed.success) expect(PAID.has(readMobileTransaction(parsed.data).status)).toBe(false)
      }),
    )
  })

  it("property: the APM status reader never throws on arbitrary JSON, and never reads paid without a success state", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const parsed = ExtendedEnvelopeSchema.safeParse(body)
        if (!parsed.success) return
        const state = readMobileTransaction(parsed.data)
        const said = [parsed.data.state, parsed.data.response?.request?.transaction?.state]
        if (PAID.has(state.status)) expect(said.some((s) => s !== undefined && SUCCESS_STATES.has(s))).toBe(true)
      }),
    )
  })

  it("property: the notification body parser never throws on arbitrary JSON or bytes", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v) ?? ""),
        ),
        (data, raw) => {
          expect(() =>
            parseNotificationBody({ data: data as never, rawData: Buffer.from(raw), headers: {} }, NotificationSchema),
          ).not.toThrow()
        },
      ),
    )
  })
})

describe("requireHundredthsCurrency", () => {
  it.each([
    ["JPY", 0],
    ["KWD", 3],
    ["CLF", 4],
  ])("refuses %s (%i decimals), naming it and the scheme", (code, decimals) => {
    expect(() => requireHundredthsCurrency(code, "PSP_B")).toThrow(
      new RegExp(`PSP_B takes amounts in hundredths, and ${code} has ${decimals} decimals`),
    )
  })

  it.each(["EUR", "sek", "NOK"])("accepts %s", (code) => {
    expect(() => requireHundredthsCurrency(code, "PSP_B")).not.toThrow()
  })
})
