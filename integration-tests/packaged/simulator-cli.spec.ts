/**
 * `npx nexi-simulator` in a checkout, after `npm run build` (which the integration run does
 * first): npm runs the package's own bin, so the built cli.js must carry its run bit.
 */
import { spawnSync } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "..", "..")

it("runs the simulator's CLI through npx and prints its usage with the defaults", () => {
  const run = spawnSync("npx", ["--no-install", "nexi-simulator", "--help"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  })
  expect(run.stderr).not.toMatch(/Permission denied/)
  expect(run.status).toBe(0)
  expect(run.stdout).toMatch(/^Usage: nexi-simulator /m)
  expect(run.stdout).toMatch(/--port N .*\(default: 4010\)/)
})

it("prints, for the port given beside --help, the .env line and addresses of that port", () => {
  const run = spawnSync("npx", ["--no-install", "nexi-simulator", "--port", "9511", "--help"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  })
  expect(run.status).toBe(0)
  expect(run.stdout).toContain("NEXI_SIMULATOR_URL=http://127.0.0.1:9511\n")
  expect(run.stdout).toMatch(/environment: +http:\/\/127\.0\.0\.1:9511\/api\/phoenix-0\.0\/psp\/api\/v1/)
})
