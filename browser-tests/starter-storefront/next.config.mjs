import { dirname } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Nothing is read at build time: the backend URL and the publishable key come from the server's
 * environment when it starts (src/lib/config.ts), so one build serves every test store.
 * The root's biome lints this app; Next's own ESLint step is off. The app is its own root,
 * beside the repository's lockfile.
 */
export default {
  eslint: { ignoreDuringBuilds: true },
  outputFileTracingRoot: dirname(fileURLToPath(import.meta.url)),
}
