/** GET /assets/logos/{name}.svg: the logos payment_methods links to. */
import type { SimRequest, SimResponse } from "../http-types"
import { logoSvg } from "./logos"

export function serveAsset(req: SimRequest): SimResponse {
  const match = /^\/logos\/([a-z]+)\.svg$/.exec(req.path)
  const svg = req.method === "GET" && match ? logoSvg(match[1]) : undefined
  if (!svg) return { status: 404, text: "not found" }
  return { status: 200, text: svg, contentType: "image/svg+xml", headers: { "cache-control": "public, max-age=86400" } }
}
