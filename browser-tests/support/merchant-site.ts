/**
 * A stand-in for the merchant's site: resultUrl and cancelUrl pages the browser lands on,
 * and a notificationUrl that records what the gateway pushes.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Notification } from "../../src/gateway/schemas"

export interface MerchantSite {
  resultUrl: string
  cancelUrl: string
  notificationUrl: string
  notifications: Notification[]
  close(): Promise<void>
}

export async function startMerchantSite(): Promise<MerchantSite> {
  const notifications: Notification[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://merchant.invalid").pathname
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
