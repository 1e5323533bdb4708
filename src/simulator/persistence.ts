/**
 * The optional state file: loaded once at start, rewritten after every change so a restarted
 * simulator still knows the orders a store created before. Writes go to a temporary file that
 * is then renamed over the old one, so a crash mid-write never leaves half a file behind.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs"

export interface PersistedState {
  version: 1
  gateway: unknown
  apm: unknown
}

export class StateFile {
  constructor(private readonly path: string) {}

  /** The saved state, or undefined when the file does not exist yet. */
  load(): PersistedState | undefined {
    let text: string
    try {
      text = readFileSync(this.path, "utf8")
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
      throw error
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new Error(`state file ${this.path} is not valid JSON (${(error as Error).message}); fix or delete it`)
    }
    if (!isPersistedState(parsed)) {
      throw new Error(`state file ${this.path} was not written by this simulator version; delete it to start afresh`)
    }
    return parsed
  }

  save(state: PersistedState): void {
    const temporary = `${this.path}.${process.pid}.tmp`
    writeFileSync(temporary, JSON.stringify(state))
    renameSync(temporary, this.path)
  }
}

function isPersistedState(value: unknown): value is PersistedState {
  return typeof value === "object" && value !== null && (value as { version?: unknown }).version === 1
}
