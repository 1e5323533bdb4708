/**
 * The part of Medusa's Logger the clients use. Medusa's logger fits it as is; so does
 * `console`. Everything passed to it has been through `redact` first.
 */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
  /** Medusa's logger has it: false for a level it drops (debug, at its default level "http"). */
  shouldLog?(level: string): boolean
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  shouldLog: () => false,
}
