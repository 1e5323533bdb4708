/**
 * Which gateway operation a card write made, read back from the order after its answer was
 * lost: one row per kind of write and per history that must, or must not, match.
 */

import type { GatewayClient } from "../../gateway/gateway-client"
import type { OrderDetails } from "../../gateway/schemas"
import { executedOperationFor, requestOf, UndecidableRecordError } from "../card/card-writes"

type Op = {
  operationId: string
  operationType: string
  operationResult: string
  operationAmount?: string
  cancelledOperationId?: string
}

function order(...operations: Op[]): OrderDetails {
  return {
    orderStatus: { order: { orderId: "ORD1", amount: "2000", currency: "EUR" } },
    operations,
    paymentLinks: [],
  } as unknown as OrderDetails
}

const AUTH: Op = {
  operationId: "1",
  operationType: "AUTHORIZATION",
  operationResult: "AUTHORIZED",
  operationAmount: "2000",
}
const CAPTURE: Op = { operationId: "2", operationType: "CAPTURE", operationResult: "EXECUTED", operationAmount: "2000" }
const REFUND_500: Op = {
  operationId: "3",
  operationType: "REFUND",
  operationResult: "REFUNDED",
  operationAmount: "500",
}

const cases: Array<
  [
    string,
    { kind: string; amount_minor: string; target_ref: string | null },
    OrderDetails,
    string[],
    string | undefined,
  ]
> = [
  [
    "a capture of the same amount",
    { kind: "capture", amount_minor: "2000", target_ref: "1" },
    order(AUTH, CAPTURE),
    [],
    "2",
  ],
  ["no capture yet", { kind: "capture", amount_minor: "2000", target_ref: "1" }, order(AUTH), [], undefined],
  [
    "a capture of another amount",
    { kind: "capture", amount_minor: "1250", target_ref: "1" },
    order(AUTH, CAPTURE),
    [],
    undefined,
  ],
  [
    "a refund of the same amount",
    { kind: "refund", amount_minor: "500", target_ref: "2" },
    order(AUTH, CAPTURE, REFUND_500),
    [],
    "3",
  ],
  [
    "a refund already given to another write",
    { kind: "refund", amount_minor: "500", target_ref: "2" },
    order(AUTH, CAPTURE, REFUND_500),
    ["3"],
    undefined,
  ],
  [
    "a pending refund",
    { kind: "refund", amount_minor: "500", target_ref: "2" },
    order(AUTH, CAPTURE, { ...REFUND_500, operationResult: "PENDING" }),
    [],
    "3",
  ],
  [
    "a failed refund",
    { kind: "refund", amount_minor: "500", target_ref: "2" },
    order(AUTH, CAPTURE, { ...REFUND_500, operationResult: "FAILED" }),
    [],
    undefined,
  ],
  [
    "a void as VOID/VOIDED",
    { kind: "void", amount_minor: "2000", target_ref: "1" },
    order(AUTH, {
      operationId: "4",
      operationType: "VOID",
      operationResult: "VOIDED",
      operationAmount: "2000",
      cancelledOperationId: "1",
    }),
    [],
    "4",
  ],
  [
    "a void as REFUND/VOIDED",
    { kind: "void", amount_minor: "2000", target_ref: "1" },
    order(AUTH, { operationId: "4", operationType: "REFUND", operationResult: "VOIDED", operationAmount: "2000" }),
    [],
    "4",
  ],
  [
    "a void as VOID/EXECUTED (the read model's undo rule: a void that succeeded)",
    { kind: "void", amount_minor: "2000", target_ref: "1" },
    order(AUTH, {
      operationId: "4",
      operationType: "VOID",
      operationResult: "EXECUTED",
      operationAmount: "2000",
      cancelledOperationId: "1",
    }),
    [],
    "4",
  ],
  [
    "a void that failed",
    { kind: "void", amount_minor: "2000", target_ref: "1" },
    order(AUTH, {
      operationId: "4",
      operationType: "VOID",
      operationResult: "FAILED",
      operationAmount: "2000",
      cancelledOperationId: "1",
    }),
    [],
    undefined,
  ],
  [
    "a void recorded on the authorization itself",
    { kind: "void", amount_minor: "2000", target_ref: "1" },
    order({ ...AUTH, operationResult: "VOIDED" }),
    [],
    "1",
  ],
  [
    "a cancel of that capture",
    { kind: "cancel_capture", amount_minor: "2000", target_ref: "2" },
    order(AUTH, CAPTURE, {
      operationId: "5",
      operationType: "CANCEL",
      operationResult: "EXECUTED",
      cancelledOperationId: "2",
    }),
    [],
    "5",
  ],
  [
    "a cancel of another operation",
    { kind: "cancel_capture", amount_minor: "2000", target_ref: "2" },
    order(AUTH, CAPTURE, {
      operationId: "5",
      operationType: "CANCEL",
      operationResult: "EXECUTED",
      cancelledOperationId: "9",
    }),
    [],
    undefined,
  ],
]

describe("executedOperationFor", () => {
  it.each(cases)("%s", (_name, write, details, taken, expected) => {
    expect(executedOperationFor(write as never, details, new Set(taken))).toBe(expected)
  })

  it("cannot decide when a refund the write could have made has a result this plugin does not know", () => {
    const refund = { kind: "refund", amount_minor: "500", target_ref: "2" } as never
    const unknownResult = {
      operationId: "3",
      operationType: "REFUND",
      operationAmount: "500",
      unrecognized: { operationResult: "SETTLED" },
    }
    expect(() => executedOperationFor(refund, order(AUTH, CAPTURE, unknownResult as never), new Set())).toThrow(
      UndecidableRecordError,
    )
    // One of another type is no refund: nothing was made.
    const otherType = { operationId: "4", operationType: "CANCEL", unrecognized: { operationResult: "SETTLED" } }
    expect(executedOperationFor(refund, order(AUTH, CAPTURE, otherType as never), new Set())).toBeUndefined()
  })
})

describe("requestOf", () => {
  function gatewayCalls() {
    const calls: unknown[][] = []
    const answer =
      (name: string) =>
      async (...args: unknown[]) => {
        calls.push([name, ...args])
        return { operationId: "OP" }
      }
    const gateway = { capture: answer("capture"), refund: answer("refund"), cancelCapture: answer("cancelCapture") }
    return { gateway: gateway as unknown as GatewayClient, calls }
  }
  const write = (kind: string) =>
    ({ kind, idempotency_key: "K", target_ref: "T", amount_minor: "500", currency: "EUR", medusa_ref: "R" }) as never

  it("sends a capture or refund named after Medusa's record, the same when it is sent again", async () => {
    const { gateway, calls } = gatewayCalls()
    await requestOf(gateway, write("capture"))()
    await requestOf(gateway, write("refund"))()
    await requestOf(gateway, write("refund"), "Refund of a capture that can no longer be cancelled")()
    expect(calls).toEqual([
      ["capture", "T", { amount: "500", currency: "EUR", description: "Capture R" }, "K"],
      ["refund", "T", { amount: "500", currency: "EUR", description: "Refund R" }, "K"],
      [
        "refund",
        "T",
        { amount: "500", currency: "EUR", description: "Refund of a capture that can no longer be cancelled" },
        "K",
      ],
    ])
  })

  it("sends a void as a refund of the authorization, and a cancel without a key, with its sender's description", async () => {
    const { gateway, calls } = gatewayCalls()
    await requestOf(gateway, write("void"), "Void of an uncaptured authorization")()
    await requestOf(gateway, write("cancel_capture"), "Payment cancelled in Medusa")()
    expect(calls).toEqual([
      ["refund", "T", { amount: "500", currency: "EUR", description: "Void of an uncaptured authorization" }, "K"],
      ["cancelCapture", "T", { description: "Payment cancelled in Medusa" }],
    ])
  })

  it.each(["void", "cancel_capture", "moto", "mit_charge"])("never sends a %s again (no description)", (kind) => {
    expect(() => requestOf(gatewayCalls().gateway, write(kind))).toThrow(
      `nexi: a ${kind} is not sent on behalf of a Medusa capture or refund`,
    )
  })
})
