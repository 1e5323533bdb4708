import fs from "node:fs"
import net from "node:net"

const { freePort, probePort } = require("../free-port") as {
  freePort(): Promise<number>
  probePort(port: number): Promise<NodeJS.ErrnoException | undefined>
}

function ephemeralStart(): number {
  try {
    return Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])
  } catch {
    return 49152
  }
}

describe("freePort", () => {
  it("hands out ports below the ephemeral range, where no outgoing connection takes them before the server binds", async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()))
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20000)
      expect(port).toBeLessThan(ephemeralStart())
    }
    expect(new Set(ports).size).toBe(ports.length)
  })

  it("hands out a port a server can bind on 127.0.0.1 and on every interface", async () => {
    const port = await freePort()
    const server = net.createServer()
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, "127.0.0.1", resolve)
    })
    try {
      const held = await probePort(port)
      expect(held?.code).toBe("EADDRINUSE")
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
    expect(await probePort(port)).toBeUndefined()
  })
})
