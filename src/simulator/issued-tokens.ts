/**
 * Every notification security token the simulator has issued since it started, for test
 * suites that check their captured logs for leaked secrets (GET /__sim/security-tokens).
 * Unlike orders, the list survives POST /__sim/reset: suites reset before each test but check
 * their logs once, at the end, for every token of the run. Never persisted.
 */

/** Bounds memory for a simulator left running for days; no test suite issues this many. */
export const MAX_REMEMBERED_TOKENS = 100_000

export class IssuedTokens {
  private tokens: string[] = []

  record(token: string): void {
    this.tokens.push(token)
    if (this.tokens.length > MAX_REMEMBERED_TOKENS) this.tokens.shift()
  }

  list(): string[] {
    return [...this.tokens]
  }
}
