/**
 * Times as the admin's own payment section writes them ("21 Nov, 2025, 14:03:12", the
 * viewer's time zone), so a Nexi operation and Medusa's capture of it read alike side by side.
 * The gateway sends ISO 8601 with an offset; anything unreadable is shown as it came.
 */
import { NO_VALUE } from "./money"

export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return NO_VALUE
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "2-digit",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ""
  return `${part("day")} ${part("month")}, ${part("year")}, ${part("hour")}:${part("minute")}:${part("second")}`
}
