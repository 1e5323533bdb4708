/** Types of starter-shipping.js for TypeScript callers (the starter-shaped storefront's browser tests). */
import type { RunningDemo } from "./start-demo"

export const SHIPPING_OPTION: string

export type AdminCall = <T>(method: "GET" | "POST", path: string, body?: unknown) => Promise<T>

/** The admin API as the demo's admin user. */
export function adminApi(demo: RunningDemo): Promise<AdminCall>

/** A stock location serving Italy, a flat-rate shipping option, the products in its profile; once per store. */
export function seedStarterShipping(demo: RunningDemo): Promise<void>
