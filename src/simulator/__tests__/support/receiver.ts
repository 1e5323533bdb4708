/** A tiny merchant endpoint for notifications: records what arrives, answers a chosen status. */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Notification } from "../../../gateway/schemas"

export interface Receiver {
  url: string
  received: { body: Notification; at: number }[]
  answerWith(status: number): void
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const received: Receiver["received"] = []
  let status = 200
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")), at: Date.now() })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/notify`,
    received,
    answerWith: (next) => {
      status = next
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
