/**
 * Check 3: the gateway can deliver notifications to notificationUrl. It calls from the
 * internet, to https on port 443 (docs/contract/gateway.md#notifications): a loopback, private
 * or single-label host, or another port, never receives them, and payments then complete only
 * when the job polls them.
 */
import { type DoctorCheck, fail, pass } from "./check"
import { nonPublicHostReason } from "./public-host"

export const notificationUrlCheck: DoctorCheck = {
  id: "notification-url",
  title: "Notification URL",
  blocking: true,
  run({ options }) {
    const value = options.notificationUrl
    const url = new URL(value)
    const problems: string[] = []
    if (url.protocol !== "https:") problems.push(`it uses ${url.protocol.replace(":", "")}, not https`)
    if (url.port !== "" && url.port !== "443") problems.push(`it names port ${url.port}, not 443`)
    const hostReason = nonPublicHostReason(url.hostname)
    if (hostReason) problems.push(hostReason)
    if (problems.length === 0) {
      return pass(
        `${value} is https on port 443 with a public host name; the gateway notifies ${value.replace(/\/+$/, "")}/hooks/payment/nexi_<entry id>.`,
      )
    }
    return fail(
      `notificationUrl ${value} cannot receive the gateway's notifications: ${problems.join("; ")}.`,
      "Set notificationUrl to the store backend's public https address on port 443 (for example https://api.your-shop.com), the address Nexi's servers reach from the internet; behind a proxy or tunnel, its public name.",
    )
  },
}
