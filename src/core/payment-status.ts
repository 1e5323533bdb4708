/**
 * Where a payment stands, in the same five words for cards and mobile payments: the words of
 * Medusa's payment session statuses that a gateway can bring about.
 */
export const PAYMENT_STATUSES = ["pending", "authorized", "captured", "error", "canceled"] as const

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
