"use client"
import { useState } from "react"
import { startCardPayment } from "../../lib/nexi"

/** The checkout's last button: the card's session, then the gateway's hosted page, a full-page navigation. */
export function PayWithCard({ providerId }: { providerId: string }) {
  const [error, setError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const pay = async () => {
    setSubmitting(true)
    const page = await startCardPayment(providerId)
    if ("url" in page) return window.location.assign(page.url)
    setError(page.error)
    setSubmitting(false)
  }
  return (
    <>
      <button type="button" disabled={submitting} onClick={pay}>
        Pay with card
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </>
  )
}
