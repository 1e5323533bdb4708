"use server"
import { sdk } from "@lib/config"
import type { HttpTypes } from "@medusajs/types"

export async function listRegions(): Promise<HttpTypes.StoreRegion[]> {
  const { regions } = await sdk.client.fetch<HttpTypes.StoreRegionListResponse>("/store/regions", {
    cache: "no-store",
  })
  return regions
}

export async function getRegion(countryCode: string): Promise<HttpTypes.StoreRegion | undefined> {
  const regions = await listRegions()
  return regions.find((region) => region.countries?.some((country) => country.iso_2 === countryCode))
}
