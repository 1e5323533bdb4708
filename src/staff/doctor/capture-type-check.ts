/** Check 8: the capture type, and what it means for the store's staff. */
import { type DoctorCheck, pass } from "./check"

export const captureTypeCheck: DoctorCheck = {
  id: "capture-type",
  title: "Capture type",
  blocking: false,
  run({ options }) {
    if (options.captureType === "IMPLICIT") {
      return pass(
        "IMPLICIT: the money is taken when the shopper pays; orders arrive captured, and undoing a payment is a refund.",
      )
    }
    return pass(
      "EXPLICIT: the shopper's payment is only authorized; staff capture it from the order (Medusa's Capture) before the authorization expires, and cancelling an uncaptured order releases the hold without a refund.",
    )
  },
}
