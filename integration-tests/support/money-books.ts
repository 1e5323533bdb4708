/**
 * Whether the gateway and Medusa hold the same money for one payment: the captured amount
 * and the refunded amount, in minor units, read from both sides. Used by the money-once
 * fault suites to end every test with the same check.
 */
import type { CheckoutKit, RecordedPayment } from "./checkout-kit"

export interface Books {
  capturedMinor: number
  refundedMinor: number
}

const toMinor = (major: number | string) => Math.round(Number(major) * 100)

/** What the gateway order holds: capturedAmount, and the sum of its REFUND operations (REFUNDED or PENDING). */
export async function gatewayBooks(kit: CheckoutKit, gatewayOrderId: string): Promise<Books> {
  const { orderStatus, operations } = await kit.gatewayOrder(gatewayOrderId)
  const refundedMinor = operations
    .filter(
      (operation) =>
        operation.operationType === "REFUND" && ["REFUNDED", "PENDING"].includes(operation.operationResult),
    )
    .reduce((total, operation) => total + Number(operation.operationAmount), 0)
  return { capturedMinor: Number(orderStatus.capturedAmount ?? 0), refundedMinor }
}

/** What Medusa holds for the payment: the sum of its captures and of its refunds (EUR, two decimals). */
export function medusaBooks(payment: RecordedPayment): Books {
  return {
    capturedMinor: payment.captures.reduce((total, capture) => total + toMinor(capture.amount), 0),
    refundedMinor: payment.refunds.reduce((total, refund) => total + toMinor(refund.amount), 0),
  }
}

/** The one payment of a Medusa order, checked against its gateway order; returns both books. */
export async function expectBooksAgree(
  kit: CheckoutKit,
  gatewayOrderId: string,
  medusaOrderId: string,
): Promise<Books> {
  const payments = await kit.paymentsOfOrder(medusaOrderId)
  expect(payments).toHaveLength(1)
  const gateway = await gatewayBooks(kit, gatewayOrderId)
  expect(medusaBooks(payments[0])).toEqual(gateway)
  return gateway
}
