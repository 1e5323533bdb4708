/** Medusa's own CLI (`medusa db:migrate`, `exec`, `user`, `start`), run from the repository root. */
const { REPO_ROOT } = require("./settings")
const { runToEnd, startChild } = require("./child-process")

const MEDUSA_CLI = require.resolve("@medusajs/cli/cli.js", { paths: [REPO_ROOT] })

/** Runs a command to its end; rejects with its last output lines when it fails. */
function runMedusa(args, { env, quiet = false, name = `medusa ${args[0]}`, signal }) {
  return runToEnd(process.execPath, [MEDUSA_CLI, ...args], { name, cwd: REPO_ROOT, env, quiet, signal })
}

/** Starts a long-running command (the server). */
function startMedusa(args, { env, quiet = false, name = "medusa", signal }) {
  return startChild(process.execPath, [MEDUSA_CLI, ...args], { name, cwd: REPO_ROOT, env, quiet, signal })
}

module.exports = { runMedusa, startMedusa }
