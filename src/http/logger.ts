/**
 * The part of Medusa's Logger the clients use. Medusa's logger fits it as is; so does
 * `console`. Everything passed to it has been through `redact` first.
 */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}
