/**
 * The demo's ports: the ones asked for must be free (otherwise a server already there, an
 * earlier demo's Medusa for instance, would answer the readiness checks in place of ours), and
 * the ones left out are picked free, so tests and a benchmark can run beside a running demo.
 */
const { freePort, probePort } = require("../lib/free-port")

const NAMES = ["medusa", "storefront", "simulator"]

async function assertPortFree(name, port) {
  const error = await probePort(port)
  if (!error) return
  const why = error.code === "EADDRINUSE" ? "is in use" : `cannot be used (${error.code ?? error.message})`
  throw new Error(`${name} port ${port} ${why}: stop what holds it, or choose another (docs/demo.md, Settings)`)
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
