/**
 * A stand-in for the merchant's site: resultUrl and cancelUrl pages the browser lands on,
 * a notificationUrl that records what the gateway pushes, and any pages a test adds (routes,
 * keyed "METHOD /path").
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Notification } from "../../src/gateway/schemas"

export interface MerchantAnswer {
  status: number
  contentType: string
  body: string
}

export type MerchantRoute = (url: URL, body: string) => Promise<MerchantAnswer>

export interface MerchantSite {
  /** The site's origin: http://127.0.0.1:PORT */
  origin: string
  resultUrl: string
  cancelUrl: string
  notificationUrl: string
  notifications: Notification[]
  close(): Promise<void>
}

export async function startMerchantSite(routes: Record<string, MerchantRoute> = {}): Promise<MerchantSite> {
  const notifications: Notification[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://merchant.invalid")
      const path = url.pathname
      const route = routes[`${req.method} ${path}`]
      if (route) {
        void route(url, Buffer.concat(chunks).toString("utf8")).then(({ status, contentType, body }) => {
          res.writeHead(status, { "content-type": contentType }).end(body)
        })
        return
      }
      if (req.method === "POST" && path === "/notify") {
        notifications.push(JSON.parse(Buffer.concat(chunks).toString("utf8")))
        res.writeHead(200).end()
        return
      }
      const title =
        path === "/result" ? "Thank you for your order" : path === "/cancel" ? "Payment cancelled" : "Not found"
      res.writeHead(path === "/result" || path === "/cancel" ? 200 : 404, {
        "content-type": "text/html; charset=utf-8",
      })
      res.end(`<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin: base,
    resultUrl: `${base}/result`,
    cancelUrl: `${base}/cancel`,
    notificationUrl: `${base}/notify`,
    notifications,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
