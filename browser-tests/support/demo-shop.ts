/**
 * The one-command demo for a browser test: startDemo() on free ports with a throwaway data
 * directory and the embedded PostgreSQL (never a DATABASE_URL from the shell: the test must
 * not seed someone's database), without the admin dashboard, which no shopper test opens.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type RunningDemo, type StartDemoOptions, startDemo } from "../../scripts/demo/start-demo"

export interface DemoForTests {
  dataDir: string
  start(options?: StartDemoOptions): Promise<RunningDemo>
  /** Stops the demo if running and deletes its data directory. */
  cleanUp(): Promise<void>
}

export function demoForTests(): DemoForTests {
  const dataDir = mkdtempSync(join(tmpdir(), "nexi-demo-test-"))
  // mkdtemp makes it 0700; run as root, the embedded PostgreSQL's own user must reach inside.
  chmodSync(dataDir, 0o755)
  let running: RunningDemo | undefined
  return {
    dataDir,
    async start(options = {}) {
      await running?.stop()
      running = await startDemo({ dataDir, databaseUrl: null, admin: false, quiet: true, ...options })
      return running
    },
    async cleanUp() {
      await running?.stop()
      running = undefined
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
