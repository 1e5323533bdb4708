/**
 * Headless Chromium from Debian's package (apt-get install chromium), driven by
 * playwright-core. No browser is ever downloaded: a missing binary fails with the fix.
 */
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"

export const CHROMIUM_PATH = "/usr/bin/chromium"
export const SCREENSHOT_DIR = join(__dirname, "..", "..", ".test-artifacts", "screenshots")

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: install Debian's Chromium with "apt-get update && apt-get install -y chromium"`,
    )
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  })
}

/** Saves a full-page screenshot as .test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
}
