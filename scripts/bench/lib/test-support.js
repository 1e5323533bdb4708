/**
 * The test fakes the bench shares with the unit tests (test-support/), loaded from their
 * TypeScript: they are not part of the plugin, so the build never compiles them. ts-node
 * transpiles only (no type check), once, for this process.
 */
const path = require("node:path")
const { ROOT } = require("./built")

let registered = false

function testSupport(name) {
  if (!registered) {
    require("ts-node").register({ transpileOnly: true, compilerOptions: { module: "commonjs" } })
    registered = true
  }
  return require(path.join(ROOT, "test-support", name))
}

module.exports = { testSupport }
