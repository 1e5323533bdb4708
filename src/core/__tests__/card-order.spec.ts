import type { Operation, OperationResult, OrderDetails } from "../../gateway/schemas"
import { OPERATION_RESULTS } from "../../gateway/schemas"
import { readCardOrder } from "../card/card-order"

let sequence = 0
function operation(fields: Partial<Operation>): Operation {
  sequence += 1
  return {
    operationId: `op${sequence}`,
    operationTime: new Date(Date.UTC(2026, 10, 20, 10, 0, sequence)).toISOString(),
    operationAmount: "1999",
    operationCurrency: "EUR",
    ...fields,
  }
}

function order(
  operations: Operation[],
  amounts: { authorizedAmount?: string; capturedAmount?: string } = {},
): OrderDetails {
  return {
    orderStatus: { order: { orderId: "ORDER1", amount: "1999", currency: "EUR" }, ...amounts },
    operations,
    paymentLinks: [],
  }
}

describe("readCardOrder", () => {
  it("is pending while the shopper has not paid", () => {
    expect(readCardOrder(order([])).status).toBe("pending")
  })

  // Every operation result, as the only operation of an authorization attempt.
  const expected: Record<OperationResult, { status: string; reason?: RegExp }> = {
    AUTHORIZED: { status: "authorized" },
    EXECUTED: { status: "pending" }, // an EXECUTED AUTHORIZATION is a card verification, not money
    PENDING: { status: "pending" },
    THREEDS_VALIDATED: { status: "pending" },
    DECLINED: { status: "error", reason: /declined/ },
    DENIED_BY_RISK: { status: "error", reason: /risk/ },
    THREEDS_FAILED: { status: "error", reason: /3-D Secure/ },
    FAILED: { status: "error", reason: /technical/ },
    CANCELED: { status: "canceled", reason: /cancelled/ },
    VOIDED: { status: "canceled", reason: /voided/ }, // the gateway voided the authorization in place
    REFUNDED: { status: "pending" },
  }
  it.each(OPERATION_RESULTS.map((result) => [result, expected[result]] as const))(
    "maps an AUTHORIZATION with result %s",
    (result, outcome) => {
      const state = readCardOrder(order([operation({ operationType: "AUTHORIZATION", operationResult: result })]))
      expect(state.status).toBe(outcome.status)
      if (outcome.reason) expect(state.reason).toMatch(outcome.reason)
      else expect(state.reason).toBeUndefined()
    },
  )

  it("is captured by an implicit CAPTURE/EXECUTED, which is also the payment operation", () => {
    const capture = operation({ operationType: "CAPTURE", operationResult: "EXECUTED" })
    const state = readCardOrder(order([capture]))
    expect(state).toMatchObject({
      status: "captured",
      paymentOperationId: capture.operationId,
      captureOperationId: capture.operationId,
      capturedMinor: "1999",
    })
  })

  it("keeps the authorization as payment operation after an explicit capture of part of it", () => {
    const authorization = operation({ operationType: "AUTHORIZATION", operationResult: "AUTHORIZED" })
    const capture = operation({ operationType: "CAPTURE", operationResult: "EXECUTED", operationAmount: "1000" })
    const state = readCardOrder(order([authorization, capture], { authorizedAmount: "1999" }))
    expect(state).toMatchObject({
      status: "captured",
      paymentOperationId: authorization.operationId,
      captureOperationId: capture.operationId,
      authorizedMinor: "1999",
      capturedMinor: "1000",
    })
  })

  it("goes back to authorized when the capture was cancelled", () => {
    const authorization = operation({ operationType: "AUTHORIZATION", operationResult: "AUTHORIZED" })
    const capture = operation({ operationType: "CAPTURE", operationResult: "EXECUTED" })
    const cancel = operation({
      operationType: "CANCEL",
      operationResult: "EXECUTED",
      cancelledOperationId: capture.operationId,
    })
    expect(readCardOrder(order([authorization, capture, cancel])).status).toBe("authorized")
  })

  it("is canceled when the authorization was voided", () => {
    const authorization = operation({ operationType: "AUTHORIZATION", operationResult: "AUTHORIZED" })
    const voided = operation({
      operationType: "VOID",
      operationResult: "VOIDED",
      cancelledOperationId: authorization.operationId,
    })
    const state = readCardOrder(order([authorization, voided]))
    expect(state.status).toBe("canceled")
    expect(state.reason).toMatch(/voided/)
  })

  it("sums executed refunds and lists pending ones apart", () => {
    const capture = operation({ operationType: "CAPTURE", operationResult: "EXECUTED" })
    const refunded = operation({ operationType: "REFUND", operationResult: "REFUNDED", operationAmount: "500" })
    const pending = operation({ operationType: "REFUND", operationResult: "PENDING", operationAmount: "300" })
    const state = readCardOrder(order([capture, refunded, pending]))
    expect(state.refundedMinor).toBe("500")
    expect(state.refunds.map((refund) => refund.result)).toEqual(["REFUNDED", "PENDING"])
  })

  it("judges by the latest attempt: a 3-D Secure pass followed by a decline is an error", () => {
    const passed = operation({ operationType: "AUTHORIZATION", operationResult: "THREEDS_VALIDATED" })
    const declined = operation({ operationType: "AUTHORIZATION", operationResult: "DECLINED" })
    expect(readCardOrder(order([declined, passed].reverse())).status).toBe("error")
  })

  it("adds amounts beyond 2^53 minor units exactly", () => {
    const big = "90071992547409930"
    const capture = operation({ operationType: "CAPTURE", operationResult: "EXECUTED", operationAmount: big })
    expect(readCardOrder(order([capture])).capturedMinor).toBe(big)
  })
})
