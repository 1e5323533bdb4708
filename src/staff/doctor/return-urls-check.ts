/**
 * Check 4: the pages the hosted page sends the shopper back to. https, because the shopper
 * leaves a payment page for them; and a `{cart_id}` (or `{session_id}`) placeholder, because
 * without it the storefront cannot tell which cart came back.
 */
import type { NexiOptions } from "../../core/options"
import { type DoctorCheck, fail, pass, warn } from "./check"
import { nonPublicHostReason } from "./public-host"

const PLACEHOLDERS = ["{cart_id}", "{session_id}"]

type Url = { option: "resultUrl" | "cancelUrl"; value: string }

function problemsOf({ option, value }: Url): { blocking: string[]; advisory: string[] } {
  const url = new URL(value)
  const blocking: string[] = []
  const advisory: string[] = []
  if (url.protocol !== "https:") blocking.push(`${option} ${value} uses ${url.protocol.replace(":", "")}, not https`)
  if (!PLACEHOLDERS.some((placeholder) => value.includes(placeholder))) {
    blocking.push(`${option} ${value} carries neither {cart_id} nor {session_id}`)
  }
  const hostReason = nonPublicHostReason(url.hostname)
  if (hostReason) advisory.push(`${option}: ${hostReason}, so shoppers' browsers cannot reach it`)
  return { blocking, advisory }
}

export function returnUrlFindings(options: Pick<NexiOptions, "resultUrl" | "cancelUrl">) {
  const urls: Url[] = [
    { option: "resultUrl", value: options.resultUrl },
    { option: "cancelUrl", value: options.cancelUrl },
  ]
  const found = urls.map(problemsOf)
  return { blocking: found.flatMap((entry) => entry.blocking), advisory: found.flatMap((entry) => entry.advisory) }
}

export const returnUrlsCheck: DoctorCheck = {
  id: "return-urls",
  title: "Return URLs",
  blocking: true,
  run({ options }) {
    const { blocking, advisory } = returnUrlFindings(options)
    if (blocking.length > 0) {
      return fail(
        `${[...blocking, ...advisory].join("; ")}.`,
        "Set resultUrl and cancelUrl to https pages of the storefront that carry the cart, e.g. https://shop.example.com/checkout/nexi/result?cart_id={cart_id}; the plugin fills in {cart_id} and {session_id}.",
      )
    }
    if (advisory.length > 0) {
      return warn(`${advisory.join("; ")}.`, "Use the storefront's public https address before going live.")
    }
    return pass(
      `resultUrl ${options.resultUrl} and cancelUrl ${options.cancelUrl} are https and carry the cart placeholder.`,
    )
  },
}
