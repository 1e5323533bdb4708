import type { JSX } from "react"

/**
 * The starters' map of a payment provider's id to what the shopper reads: the payment step and
 * the order confirmation show `title` (the confirmation without a fallback, so a provider of
 * the store missing here breaks that page). Every Nexi provider the store enables is here.
 */
export const paymentInfoMap: Record<string, { title: string; icon: JSX.Element }> = {
  pp_nexi_nexi: { title: "Card (Nexi)", icon: <span aria-hidden>💳</span> },
  "pp_nexi-apm-psp-a-e-com_nexi": { title: "Mobile payment A (Nexi)", icon: <span aria-hidden>📱</span> },
  "pp_nexi-apm-psp-b_nexi": { title: "Mobile payment (Nexi)", icon: <span aria-hidden>📱</span> },
  "pp_nexi-apm-psp-c_nexi": { title: "Mobile payment C (Nexi)", icon: <span aria-hidden>📱</span> },
  "pp_nexi-apm-psp-d_nexi": { title: "Mobile payment D (Nexi)", icon: <span aria-hidden>📱</span> },
}
