/** Validates a configured base URL early, so a typo fails at start-up rather than at checkout. */
export function parseBaseUrl(value: string, option: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`${option}: "${value}" is not an absolute URL`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`${option}: "${value}" must be an http or https URL`)
  }
  // No trailing slash: endpoint paths start with one.
  return url.href.replace(/\/+$/, "")
}
