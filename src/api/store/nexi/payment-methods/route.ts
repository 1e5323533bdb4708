/**
 * GET /store/nexi/payment-methods?region_id=reg_...: the Nexi payment providers the region
 * enables, each with what a checkout page shows: { payment_methods: [{ provider_id, kind,
 * name, logo_url }] }. 400 without region_id, 404 for an unknown region.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { isNexiProviderId } from "../../../../core/provider-ids"
import { nexiOptionsOf } from "../../../../core/store-entries"
import { parseInput } from "../../../../staff/validate-input"
import { describeNexiPaymentMethod } from "../../../utils/nexi-payment-methods"

const QuerySchema = z.object({
  region_id: z.string({ message: "is required" }).trim().min(1, "is required"),
})

type RegionRow = { id: string; payment_providers?: Array<{ id: string; is_enabled?: boolean } | null> }

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const regionId = parseInput(QuerySchema, req.query).region_id
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "region",
    fields: ["id", "payment_providers.id", "payment_providers.is_enabled"],
    filters: { id: regionId },
  })
  const region = data[0] as RegionRow | undefined
  if (!region) throw new MedusaError(MedusaError.Types.NOT_FOUND, `region_id: no region ${regionId}`)
  const providerIds = (region.payment_providers ?? [])
    .flatMap((provider) =>
      provider && provider.is_enabled !== false && isNexiProviderId(provider.id) ? [provider.id] : [],
    )
    .sort()
  res.json({
    payment_methods: providerIds.map((providerId) =>
      describeNexiPaymentMethod(providerId, nexiOptionsOf(req.scope, providerId)),
    ),
  })
}
