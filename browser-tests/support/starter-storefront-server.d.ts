/** Types of starter-storefront-server.js for the browser tests. */

/** Installs the app's dependencies unless already installed from the same lockfile and kit; true if it ran. */
export function installStarterStorefront(options?: { quiet?: boolean }): Promise<boolean>

/** Installs and builds unless the last build had the same sources; true if it built. */
export function buildStarterStorefront(options?: { quiet?: boolean }): Promise<boolean>

export function startStarterStorefront(options: {
  port: number
  backendUrl: string
  publishableKey: string
  defaultCountry?: string
  /** The app's own server settings: NEXI_CARD_FIELDS, NEXI_SDK_INTEGRITY. */
  env?: Record<string, string>
  quiet?: boolean
}): Promise<{ url: string; stop(): Promise<void> }>
