module.exports = async function globalTeardown() {
  const database = globalThis.__NEXI_EMBEDDED_POSTGRES__
  if (database) await database.stop()
}
