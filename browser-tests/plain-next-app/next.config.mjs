import { dirname } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * As the starter-shaped storefront's: nothing read at build time (lib/config.ts reads the
 * store's address when the server starts), Next's own ESLint step off (the root's biome lints
 * this app), and the app its own root beside the repository's lockfile.
 */
export default {
  eslint: { ignoreDuringBuilds: true },
  outputFileTracingRoot: dirname(fileURLToPath(import.meta.url)),
}
