/** An absolute http(s) URL: a page the browser can be sent to. */
export function isWebAddress(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === "https:" || protocol === "http:"
  } catch {
    return false
  }
}
