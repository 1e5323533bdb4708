/**
 * Check 7: the local clock against the gateway's. Order and operation lookups name time windows,
 * and the job decides from timestamps what is old enough to re-read; a clock minutes off makes
 * both miss. The clients keep no headers, so this is a plain request of the base URL for its
 * Date header; the API key goes in the header the gateway expects and is never written anywhere.
 */
import { resolveGatewayBaseUrl } from "../../gateway/environment"
import { type DoctorCheck, pass, warn } from "./check"

export const MAX_SKEW_SECONDS = 60

export const clockCheck: DoctorCheck = {
  id: "clock",
  title: "Clock",
  blocking: false,
  async run({ options, now, fetch }) {
    const url = resolveGatewayBaseUrl(options.environment)
    let date: string | null
    const sent = now()
    let received: number
    try {
      const answer = await fetch(url, {
        method: "GET",
        headers: { "X-API-KEY": options.apiKey },
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      received = now()
      date = answer.headers.get("date")
      await answer.body?.cancel()
    } catch (error) {
      return warn(
        `Could not read the gateway's time from ${url}: ${(error as Error).message}.`,
        "Check that the gateway is reachable (see the API key check).",
      )
    }
    const gatewayTime = date === null ? Number.NaN : Date.parse(date)
    if (Number.isNaN(gatewayTime)) {
      return warn(`${url} answered without a Date header, so the clocks could not be compared.`)
    }
    // The Date header has whole seconds: compare with the middle of the exchange, half a second on.
    const skewSeconds = Math.round(((sent + received) / 2 - (gatewayTime + 500)) / 1000)
    const direction = skewSeconds > 0 ? "ahead of" : "behind"
    if (Math.abs(skewSeconds) > MAX_SKEW_SECONDS) {
      return warn(
        `The local clock is ${Math.abs(skewSeconds)} s ${direction} the gateway's (Date: ${date}); more than ${MAX_SKEW_SECONDS} s skews order lookups and the job's timing.`,
        "Synchronise this machine's clock (NTP: systemd-timesyncd, chrony, or the host's time service).",
      )
    }
    return pass(`The local clock is within ${Math.max(Math.abs(skewSeconds), 1)} s of the gateway's (Date: ${date}).`)
  },
}
