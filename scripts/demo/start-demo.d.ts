/** Types of start-demo.js for TypeScript callers (the browser tests, the benchmark). */

export interface DemoPorts {
  medusa: number
  storefront: number
  simulator: number
}

export interface DemoUrls {
  backend: string
  admin: string
  storefront: string
  simulator: string
  simulatorControl: string
}

export interface DemoRegion {
  id: string
  name: string
  currency_code: string
  countries: string[]
}

export interface RunningDemo {
  urls: DemoUrls
  ports: DemoPorts
  adminCredentials: { email: string; password: string }
  /** The registered customer of the storefront (log in, saved cards). */
  shopperCredentials: { email: string; password: string }
  publishableKey: string
  regions: DemoRegion[]
  products: Array<{ id: string; handle: string; title: string }>
  /** The card fields SDK's Subresource Integrity, as GET /build/integrity answers it (docs/storefront.md, "PCI DSS"). */
  sdkIntegrity: string
  /** false when the database schema was already up to date (a second run). */
  migrated: boolean
  /** Milliseconds per step: database, simulator, migrate, seed?, adminUser?, medusa, storeCheck?, storefront, total. */
  timings: Record<string, number>
  stop(): Promise<void>
}

export interface StartDemoOptions {
  /** Ports left out are picked free. */
  ports?: Partial<DemoPorts>
  /** Default: .demo in the repository. */
  dataDir?: string
  /** Default: process.env.DATABASE_URL; empty or null starts the embedded PostgreSQL. */
  databaseUrl?: string | null
  /** Nothing on the terminal (the log file, if any, still gets everything). */
  quiet?: boolean
  /** Only the demo's progress lines on the terminal, not every process's output. */
  progressOnly?: boolean
  /** Every process's output and the demo's own lines, rewritten by each start (npm run demo: <dataDir>/demo.log). */
  logFile?: string
  /** false: no admin dashboard (a faster boot). Default true. */
  admin?: boolean
  /** false: no demo storefront; its port (ports.storefront, STOREFRONT_URL of the store) is left free for another. Default true. */
  storefront?: boolean
  signal?: AbortSignal
}

export function startDemo(options?: StartDemoOptions): Promise<RunningDemo>
