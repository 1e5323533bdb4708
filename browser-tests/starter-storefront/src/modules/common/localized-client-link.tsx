"use client"
import Link from "next/link"
import { useParams } from "next/navigation"
import type { ReactNode } from "react"

/** As the starters': a link within the shopper's country. */
export function LocalizedClientLink({ href, children }: { href: string; children: ReactNode }) {
  const { countryCode } = useParams<{ countryCode: string }>()
  return <Link href={`/${countryCode}${href}`}>{children}</Link>
}
