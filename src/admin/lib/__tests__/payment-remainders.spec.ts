import type { NexiCardPaymentView, NexiTimelineOperation } from "../../../staff/contract"
import { captureRemainder, refundRemainder } from "../payment-remainders"

const EUR = (amount: string) => ({ amount, currency: "EUR" })

function op(operation_id: string, type: string, result: string, amount: string, cancelled_operation_id: string | null = null): NexiTimelineOperation {
  return { operation_id, type, result, amount: EUR(amount), time: null, channel: null, cancelled_operation_id, warnings: [], cancellable: false }
}

function payment(amounts: { authorized: string; captured: string; refunded: string }, operations: NexiTimelineOperation[]): NexiCardPaymentView {
  return {
    kind: "card",
    payment_id: "pay_1",
    provider_id: "pp_nexi_nexi",
    gateway_order_id: "ORDER1",
    circuit: "VISA",
    masked_card: "************4549",
    three_ds: null,
    authorized: EUR(amounts.authorized),
    captured: EUR(amounts.captured),
    refunded: EUR(amounts.refunded),
    last_operation_type: null,
    operations,
  }
}

const AUTHORIZATION = op("A1", "AUTHORIZATION", "AUTHORIZED", "29.89")

describe("captureRemainder", () => {
  it("offers the whole authorization while nothing is captured", () => {
    expect(captureRemainder(payment({ authorized: "29.89", captured: "0.00", refunded: "0.00" }, [AUTHORIZATION]))).toEqual(EUR("29.89"))
  })

  it("offers nothing once a capture holds money: the gateway takes one per authorization", () => {
    const partial = payment({ authorized: "29.89", captured: "12.34", refunded: "0.00" }, [AUTHORIZATION, op("C1", "CAPTURE", "EXECUTED", "12.34")])
    expect(captureRemainder(partial)).toBeNull()
    const pending = payment({ authorized: "29.89", captured: "0.00", refunded: "0.00" }, [AUTHORIZATION, op("C1", "CAPTURE", "PENDING", "12.34")])
    expect(captureRemainder(pending)).toBeNull()
  })

  it("offers the authorization again once the capture was cancelled", () => {
    const cancelled = payment({ authorized: "29.89", captured: "0.00", refunded: "0.00" }, [
      AUTHORIZATION,
      op("C1", "CAPTURE", "EXECUTED", "12.34"),
      op("X1", "CANCEL", "EXECUTED", "12.34", "C1"),
    ])
    expect(captureRemainder(cancelled)).toEqual(EUR("29.89"))
  })

  it("still counts a capture whose cancel failed", () => {
    const failedCancel = payment({ authorized: "29.89", captured: "12.34", refunded: "0.00" }, [
      AUTHORIZATION,
      op("C1", "CAPTURE", "EXECUTED", "12.34"),
      op("X1", "CANCEL", "FAILED", "12.34", "C1"),
    ])
    expect(captureRemainder(failedCancel)).toBeNull()
  })

  it("offers nothing for a voided authorization (the gateway reports 0 authorized) or a captured-at-once payment", () => {
    const voided = payment({ authorized: "0.00", captured: "0.00", refunded: "0.00" }, [AUTHORIZATION, op("V1", "VOID", "VOIDED", "29.89", "A1")])
    expect(captureRemainder(voided)).toBeNull()
    expect(captureRemainder(payment({ authorized: "29.89", captured: "29.89", refunded: "0.00" }, [op("C1", "CAPTURE", "EXECUTED", "29.89")]))).toBeNull()
  })

  it("offers nothing in a currency whose decimals it does not know", () => {
    const odd = payment({ authorized: "29.89", captured: "0.00", refunded: "0.00" }, [AUTHORIZATION])
    expect(captureRemainder({ ...odd, authorized: { amount: "29.89", currency: "XYZ" } })).toBeNull()
  })
})

describe("refundRemainder", () => {
  it("offers nothing before a capture", () => {
    expect(refundRemainder(payment({ authorized: "29.89", captured: "0.00", refunded: "0.00" }, [AUTHORIZATION]))).toBeNull()
  })

  it("offers what is captured and not refunded, exactly", () => {
    const refunded = payment({ authorized: "29.89", captured: "20.00", refunded: "5.51" }, [
      AUTHORIZATION,
      op("C1", "CAPTURE", "EXECUTED", "20.00"),
      op("R1", "REFUND", "REFUNDED", "5.51"),
    ])
    expect(refundRemainder(refunded)).toEqual(EUR("14.49"))
  })

  it("counts a refund still pending at the gateway as taken", () => {
    const pending = payment({ authorized: "29.89", captured: "20.00", refunded: "5.00" }, [
      op("C1", "CAPTURE", "EXECUTED", "20.00"),
      op("R1", "REFUND", "REFUNDED", "5.00"),
      op("R2", "REFUND", "PENDING", "10.00"),
    ])
    expect(refundRemainder(pending)).toEqual(EUR("5.00"))
  })

  it("offers nothing once everything is refunded", () => {
    const full = payment({ authorized: "29.89", captured: "29.89", refunded: "29.89" }, [
      op("C1", "CAPTURE", "EXECUTED", "29.89"),
      op("R1", "REFUND", "REFUNDED", "29.89"),
    ])
    expect(refundRemainder(full)).toBeNull()
  })
})
