/** The :id of the /admin/nexi/payments/:id routes: a Medusa payment id. */
import { z } from "zod"

export const PaymentParamsSchema = z.object({
  id: z.string().regex(/^pay_[A-Za-z0-9]+$/, "must be a payment id (pay_...)"),
})
