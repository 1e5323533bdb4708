import { type NextRequest, NextResponse } from "next/server"

/**
 * As the starters' middleware: every path starts with a country code the store sells to; a path
 * without one is sent to /{countryCode}{path}{query}, keeping the query string, which is what
 * lets the provider's resultUrl and cancelUrl do without a country code; and the shopper's
 * cache id cookie, which names their cached reads (src/lib/data/cookies.ts).
 */
const BACKEND_URL = process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL ?? "http://localhost:9000"
const DEFAULT_COUNTRY = process.env.NEXT_PUBLIC_DEFAULT_REGION ?? "it"

let countries: { codes: Set<string>; readAt: number } | undefined

async function storeCountries(): Promise<Set<string>> {
  if (countries && Date.now() - countries.readAt < 60_000) return countries.codes
  const answer = await fetch(`${BACKEND_URL}/store/regions`, {
    headers: { "x-publishable-api-key": process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY ?? "" },
    cache: "no-store",
  })
  if (!answer.ok) throw new Error(`The store's regions could not be read: ${answer.status}`)
  const { regions } = (await answer.json()) as { regions: Array<{ countries?: Array<{ iso_2: string }> }> }
  const codes = new Set(regions.flatMap((region) => (region.countries ?? []).map((country) => country.iso_2)))
  countries = { codes, readAt: Date.now() }
  return codes
}

export async function middleware(request: NextRequest) {
  const codes = await storeCountries()
  const first = request.nextUrl.pathname.split("/")[1]?.toLowerCase()
  if (first && codes.has(first)) {
    const response = NextResponse.next()
    if (!request.cookies.has("_medusa_cache_id"))
      response.cookies.set("_medusa_cache_id", crypto.randomUUID(), { maxAge: 60 * 60 * 24 })
    return response
  }
  const countryCode = codes.has(DEFAULT_COUNTRY) ? DEFAULT_COUNTRY : [...codes][0]
  const path = request.nextUrl.pathname === "/" ? "" : request.nextUrl.pathname
  return NextResponse.redirect(new URL(`/${countryCode}${path}${request.nextUrl.search}`, request.url), 307)
}

export const config = {
  // The stylesheet the gateway's card fields load (public/nexi-card-fields.css) has no country either.
  matcher: ["/((?!api|_next/static|_next/image|favicon.ico|.*\\.png|.*\\.svg|.*\\.css).*)"],
}
