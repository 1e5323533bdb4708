/**
 * A port for a server that starts later (Medusa, the demo's storefront, an embedded PostgreSQL).
 *
 * Why not the port the system hands out for `listen(0)`: that comes from the ephemeral range,
 * the same range every outgoing connection takes its local port from. Between choosing the port
 * and binding it, Medusa's boot opens dozens of connections (PostgreSQL pools, Redis, the
 * simulator), and one of them can take it: the server then fails with EADDRINUSE (seen in CI,
 * the demo's storefront on 127.0.0.1:39777). Below the ephemeral range no outgoing connection
 * ever lands, so a port found free there stays free until a server binds it.
 */
const fs = require("node:fs")
const net = require("node:net")

/** Linux says where its ephemeral range starts; elsewhere (macOS, Windows) it starts at 49152. */
function ephemeralStart() {
  try {
    const [start] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)
    const port = Number(start)
    if (Number.isInteger(port) && port > 1024) return port
  } catch {
    // Not Linux: the IANA range below.
  }
  return 49152
}

const LOWEST = 20000
/** Ports handed out by this process, so two servers that have not bound yet never share one. */
const handedOut = new Set()

/**
 * Listens on every interface for a moment: resolves to undefined when nothing holds the port on
 * any address, otherwise to the error that kept it (EADDRINUSE, EACCES, ...).
 */
function probePort(port) {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.unref()
    probe.once("error", (error) => resolve(error))
    probe.listen(port, () => probe.close(() => resolve(undefined)))
  })
}

async function freePort() {
  const end = Math.max(ephemeralStart(), LOWEST + 1000)
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (end - LOWEST))
    if (handedOut.has(port)) continue
    // Taken before the probe, so two calls running at once never both probe and take one port.
    handedOut.add(port)
    if (!(await probePort(port))) return port
    handedOut.delete(port)
  }
  throw new Error(`No free port found between ${LOWEST} and ${end}: too many servers are running on this machine`)
}

module.exports = { freePort, probePort }
