/** Types of starter-storefront-server.js for the browser tests. */

/** The starter-shaped storefront (browser-tests/starter-storefront) or the plain Next.js app (browser-tests/plain-next-app). */
export type StorefrontApp = "starter" | "plain"

/** Installs the apps' dependencies unless already installed from the same lockfile and kit; true if it ran. */
export function installStarterStorefront(options?: { quiet?: boolean }): Promise<boolean>

/** Installs and builds the app unless its last build had the same sources; true if it built. */
export function buildStorefront(app: StorefrontApp, options?: { quiet?: boolean }): Promise<boolean>

export function startStorefront(
  app: StorefrontApp,
  options: {
    port: number
    backendUrl: string
    publishableKey: string
    defaultCountry?: string
    /** The app's own server settings: the starter's NEXI_CARD_FIELDS, NEXI_SDK_INTEGRITY. */
    env?: Record<string, string>
    quiet?: boolean
  },
): Promise<{ url: string; stop(): Promise<void> }>

/** The app's .next folder. */
export function buildDirOf(app: StorefrontApp): string
