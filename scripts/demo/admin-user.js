/**
 * The demo's admin user, created once with Medusa's own command (`medusa user`). Its password
 * is the one secrets.js generated for this data directory, so every run prints the same
 * credentials.
 */
const { runMedusa } = require("./medusa-cli")

/**
 * @param {{ env: NodeJS.ProcessEnv, email: string, password: string, exists: boolean, quiet?: boolean, signal?: AbortSignal }} options
 * @returns {Promise<{ created: boolean }>}
 */
async function ensureAdminUser({ env, email, password, exists, quiet = false, signal }) {
  if (exists) return { created: false }
  // The `=` form: a random password may begin with "-", which the CLI would read as an option.
  await runMedusa(["user", `--email=${email}`, `--password=${password}`], { env, quiet, name: "medusa user", signal })
  return { created: true }
}

module.exports = { ensureAdminUser }
