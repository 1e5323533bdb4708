/**
 * What a sync did, in words staff can act on, from Medusa's totals before and after and what
 * the gateway reports. Pure. Medusa records a cancelled capture as a refund, so Medusa and the
 * gateway are compared on what is still held: captured minus refunded.
 */
import BigNumber from "bignumber.js"
import { moneyText } from "../money/amount"

export interface HeldTotals {
  captured: BigNumber
  refunded: BigNumber
}

export interface SyncFacts {
  currency: string
  before: HeldTotals
  after: HeldTotals
  /** The gateway's view, major units; absent for a payment without one (mobile). */
  gateway?: { captured: string; refunded: string }
}

export function syncMessage({ currency, before, after, gateway }: SyncFacts): string {
  const changes: string[] = []
  const newRefunds = after.refunded.minus(before.refunded)
  const newCaptures = after.captured.minus(before.captured)
  if (newCaptures.isGreaterThan(0)) changes.push(`Recorded a capture of ${moneyText(newCaptures, currency)}.`)
  if (newRefunds.isGreaterThan(0)) {
    changes.push(`Recorded a refund of ${moneyText(newRefunds, currency)} made at the gateway outside Medusa.`)
  }
  if (!changes.length) changes.push("Nothing to record: Medusa already has every refund the gateway reports.")
  if (gateway) {
    const gatewayHeld = new BigNumber(gateway.captured).minus(gateway.refunded)
    const medusaHeld = after.captured.minus(after.refunded)
    if (!gatewayHeld.isEqualTo(medusaHeld)) {
      changes.push(
        `The gateway holds ${moneyText(gatewayHeld, currency)} captured and not refunded, Medusa ${moneyText(medusaHeld, currency)}.`,
      )
    }
  }
  return changes.join(" ")
}
