/**
 * GET /admin/nexi/doctor's use case: the doctor for the store's card provider entry, with the
 * currencies of the store's regions, through the providers' own clients. Apart from the run
 * (run-doctor.ts) because nexi-doctor imports that: the store's entries load Medusa's workflows,
 * which would add seconds and a hundred megabytes to every command.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { clientsFor } from "../../core/clients"
import { cardProviderIdOf, loggerOf, requireNexiOptions } from "../../core/store-entries"
import type { NexiDoctorResponse } from "../contract"
import { runDoctor } from "./run-doctor"

async function regionCurrencies(container: MedusaContainer): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "region", fields: ["currency_code"] })
  const codes = (data as Array<{ currency_code?: string | null }>)
    .map((region) => region.currency_code?.toUpperCase())
    .filter(Boolean)
  return [...new Set(codes as string[])].sort()
}

export async function storeDoctorReport(container: MedusaContainer): Promise<NexiDoctorResponse> {
  const options = requireNexiOptions(container, await cardProviderIdOf(container))
  const clients = clientsFor(options, loggerOf(container))
  return runDoctor({ options, clients, currencies: await regionCurrencies(container) })
}
