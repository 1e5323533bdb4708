/**
 * The secrets guard itself (integration-tests/setup/secrets-guard.ts): that it sees what
 * Medusa's logger and libraries write, and that a finding names the kind of secret and where
 * it appeared without printing it. Made-up secrets only: the real ones would fail this suite.
 */
import { logger } from "@medusajs/framework/logger"
import { CVV_AS_SENT, cardNumberSecrets, configuredSecrets, type Secret } from "../support/known-secrets"
import { type CapturedChunk, captureOutput } from "../support/output-capture"
import { describeLeak, findLeaks } from "../support/secret-scan"
import { suiteOutput } from "../support/suite-output"

const FAKE_KEY: Secret = { kind: "gateway API key", value: "not-a-real-key-0000" }
const FAKE_TOKEN: Secret = { kind: "notification security token", value: "AbCdEfGhIjKlMnOpQrStUvWx" }

const chunk = (text: string, test = "a test", stream: CapturedChunk["stream"] = "stdout"): CapturedChunk => ({
  stream,
  test,
  text,
})

describe("finding secrets in captured output", () => {
  it("names the kind, stream, test and line of the first occurrence, never the value", () => {
    const chunks = [
      chunk("boot\n", undefined),
      chunk(
        `{"level":"debug","message":"POST /orders headers={\\"X-API-KEY\\":\\"${FAKE_KEY.value}\\"}"}\n`,
        "pays once",
        "stderr",
      ),
      chunk(`again ${FAKE_KEY.value}\n`, "later"),
    ]
    const [leak, ...others] = findLeaks(chunks, [FAKE_KEY], [])
    expect(others).toEqual([])
    expect(leak).toMatchObject({ kind: "gateway API key", stream: "stderr", test: "pays once", line: 2 })
    const described = describeLeak(leak)
    expect(described).toContain('during "pays once"')
    expect(described).toContain("X-API-KEY")
    expect(described).not.toContain(FAKE_KEY.value)
  })

  it("masks other secrets on the same line and reports each kind once, earliest first", () => {
    const text = `token=${FAKE_TOKEN.value} then key=${FAKE_KEY.value} and key=${FAKE_KEY.value}\n`
    const leaks = findLeaks([chunk(text)], [FAKE_KEY, FAKE_TOKEN], [])
    expect(leaks.map((leak) => leak.kind)).toEqual(["notification security token", "gateway API key"])
    expect(leaks[1].before).toBe("token=<notification security token> then key=")
  })

  it("finds a secret split across two writes", () => {
    const [leak] = findLeaks([chunk("abc not-a-real"), chunk("-key-0000 def\n")], [FAKE_KEY], [])
    expect(leak).toMatchObject({ kind: "gateway API key", line: 1, before: "abc " })
  })

  it("catches card numbers grouped as people type them, and CVVs as sent but not redacted ones", () => {
    const cards = cardNumberSecrets()
    const grouped = cards.find((secret) => secret.value.includes(" "))!
    expect(findLeaks([chunk(`card ${grouped.value}\n`)], cards, [])[0]?.kind).toBe("card number")
    expect(findLeaks([chunk('{"cvv":"663"}\n')], [], [CVV_AS_SENT])[0]?.kind).toBe("CVV")
    expect(findLeaks([chunk(JSON.stringify({ message: 'body={"cvv":"1234"}' }))], [], [CVV_AS_SENT])[0]?.kind).toBe(
      "CVV",
    )
    expect(findLeaks([chunk('{"cvv":"[REDACTED]","amount":"1999"}\n')], [], [CVV_AS_SENT])).toEqual([])
    expect(findLeaks([chunk("order 4999340261977280 amount 1999\n")], cards, [CVV_AS_SENT])).toEqual([])
  })

  it("ignores a secret option left empty instead of matching everywhere", () => {
    expect(findLeaks([chunk("anything\n")], [{ kind: "APM consumer secret", value: "" }], [])).toEqual([])
  })

  it("reads the credentials from the store configuration the suites boot", () => {
    const kinds = configuredSecrets().map((secret) => secret.kind)
    expect(kinds).toEqual(["gateway API key", "APM consumer secret", "APM credentials (Authorization header)"])
    expect(configuredSecrets().every((secret) => secret.value.length >= 8)).toBe(true)
  })
})

describe("capturing a suite's output", () => {
  it("records what Medusa's logger, console.log and process.stderr write, in order", () => {
    const capture = captureOutput({ passThrough: () => false })
    try {
      logger.warn("guard-probe: a warning")
      console.log("guard-probe: a console line")
      process.stderr.write("guard-probe: raw stderr\n")
    } finally {
      capture.stop()
    }
    const probes = capture
      .textSince(0)
      .split("\n")
      .filter((line) => line.includes("guard-probe"))
    expect(probes).toEqual([
      expect.stringContaining("guard-probe: a warning"),
      expect.stringContaining("guard-probe: a console line"),
      "guard-probe: raw stderr",
    ])
    expect(capture.chunks().every((recorded) => recorded.test?.includes("records what Medusa's logger"))).toBe(true)
  })

  it("captures Medusa's debug lines for the guard while the run's log level hides them", () => {
    const before = suiteOutput().chunks().length
    logger.debug("guard-probe: a debug line")
    expect(suiteOutput().textSince(before)).toContain("guard-probe: a debug line")
  })
})
