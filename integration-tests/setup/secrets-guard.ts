/**
 * The secrets guard, a `setupFilesAfterEnv` of the integration and browser projects: every
 * suite's output is captured from its first line, and after the suite it must contain none of
 * the secrets it handled (known-secrets.ts). A finding fails the suite, naming the kind of
 * secret and where it was first written, never the secret itself.
 *
 * Medusa's logger is raised to `debug` for the run, so the plugin's redacted request and
 * answer lines (src/http/transport.ts) are produced and searched too; those extra lines are
 * kept out of the terminal unless LOG_LEVEL asks for them.
 */
import { logger } from "@medusajs/framework/logger"
import {
  CVV_AS_SENT,
  cardNumberSecrets,
  configuredSecrets,
  issuedSecurityTokens,
  type Secret,
} from "../support/known-secrets"
import { captureOutput } from "../support/output-capture"
import { describeLeak, findLeaks } from "../support/secret-scan"
import { setSuiteOutput } from "../support/suite-output"

/** winston's npm levels, which Medusa's logger uses; "http" is its default. */
const LEVELS: Record<string, number> = { error: 0, warn: 1, info: 2, http: 3, verbose: 4, debug: 5, silly: 6 }
const shownLevel = LEVELS[process.env.LOG_LEVEL ?? "http"] ?? LEVELS.http

/** True for a JSON log line of a level the person running the tests did not ask to see. */
function belowShownLevel(text: string): boolean {
  if (!text.startsWith('{"')) return false
  try {
    const level = (JSON.parse(text) as { level?: unknown }).level
    return typeof level === "string" && (LEVELS[level] ?? 0) > shownLevel
  } catch {
    return false
  }
}

const capture = captureOutput({ passThrough: (text) => !belowShownLevel(text) })
setSuiteOutput(capture)
logger.setLogLevel("debug")

// Tokens are read after every test too: the simulator forgets nothing on reset, but a suite
// may close it before this file's afterAll runs.
const tokens = new Map<string, Secret>()
async function collectTokens(): Promise<void> {
  for (const token of await issuedSecurityTokens()) tokens.set(token.value, token)
}

afterEach(collectTokens)

afterAll(async () => {
  await collectTokens()
  capture.stop()
  const secrets = [...configuredSecrets(), ...cardNumberSecrets(), ...tokens.values()]
  const leaks = findLeaks(capture.chunks(), secrets, [CVV_AS_SENT])
  if (leaks.length) {
    throw new Error(
      `secrets guard: this suite's output contains secrets:\n${leaks.map((leak) => `- ${describeLeak(leak)}`).join("\n")}`,
    )
  }
})
