/**
 * The demo's ports: the ones asked for must be free (otherwise a server already there, an
 * earlier demo's Medusa for instance, would answer the readiness checks in place of ours), and
 * the ones left out are picked free, so tests and a benchmark can run beside a running demo.
 */
const net = require("node:net")
const { freePort } = require("../lib/embedded-postgres")

const NAMES = ["medusa", "storefront", "simulator"]

/** Listens on every interface for a moment: fails when anything holds the port on any address. */
function assertPortFree(name, port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", (error) => {
      const why = error.code === "EADDRINUSE" ? "is in use" : `cannot be used (${error.code ?? error.message})`
      reject(new Error(`${name} port ${port} ${why}: stop what holds it, or choose another (docs/demo.md, Settings)`))
    })
    probe.listen(port, () => probe.close(() => resolve()))
  })
}

/** @param {{ medusa?: number, storefront?: number, simulator?: number }} ports */
async function choosePorts(ports) {
  const chosen = {}
  for (const name of NAMES) {
    if (ports[name]) await assertPortFree(name, ports[name])
    chosen[name] = ports[name] || (await freePort())
  }
  return chosen
}

module.exports = { choosePorts }
