/**
 * Links to the dashboard's own pages. The admin build defines __BASE__ from the store's
 * `admin.path` ("/app" by default); the plugin declares no router, so a plain link carries the
 * whole path. Outside an admin build (unit tests) Medusa's default path is assumed.
 */
import { adminApiUrl } from "./api-url"

declare const __BASE__: string | undefined

function adminBase(): string {
  return typeof __BASE__ === "string" ? __BASE__ : "/app"
}

export function orderPageUrl(orderId: string): string {
  return adminApiUrl(adminBase(), `/orders/${encodeURIComponent(orderId)}`)
}
