/**
 * Fills a path template ("/orders/{orderId}") with encoded values and keeps the template for
 * logs and error messages, which name the endpoint rather than one order.
 */
import type { HttpMethod, TransportRequest } from "./transport"

export type Route = Pick<TransportRequest, "method" | "endpoint" | "path">

export function route(method: HttpMethod, template: string, params: Record<string, string | number> = {}): Route {
  const path = template.replace(/\{(\w+)\}/g, (_placeholder, name: string) => {
    const value = String(params[name] ?? "")
    // "/orders/" would silently become the list endpoint.
    if (value === "") throw new TypeError(`${method} ${template}: ${name} must not be empty`)
    return encodeURIComponent(value)
  })
  return { method, endpoint: `${method} ${template}`, path }
}
