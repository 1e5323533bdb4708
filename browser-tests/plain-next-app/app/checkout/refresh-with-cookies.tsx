"use client"
import { useRouter } from "next/navigation"
import { useEffect } from "react"

/**
 * Renders the page again once, from the page itself. The cancel page is reached by a navigation
 * from the gateway's site, which carries no SameSite=strict cookie, so its server render finds
 * no cart; the refresh is a request of the shop's own page, which carries them.
 */
export function RefreshWithCookies() {
  const router = useRouter()
  useEffect(() => router.refresh(), [router])
  return <p>Please wait…</p>
}
