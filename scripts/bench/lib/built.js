/**
 * The plugin as the bench runs it: the compiled code in .medusa/server (what `npm run build`
 * writes and the package ships), never the TypeScript sources.
 */
const fs = require("node:fs")
const path = require("node:path")

const ROOT = path.resolve(__dirname, "..", "..", "..")
const BUILT_SRC = path.join(ROOT, ".medusa", "server", "src")

function built(relativePath) {
  const file = path.join(BUILT_SRC, relativePath)
  if (!fs.existsSync(`${file}.js`)) {
    throw new Error(`${path.relative(ROOT, file)}.js is missing: build the plugin first (npm run build)`)
  }
  return require(file)
}

module.exports = { ROOT, built }
