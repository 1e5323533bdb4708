/**
 * Numbered screenshots of the steps of one browser test, for a person to look through:
 * browser-tests/screenshots/<test>/01-<step>.png, 02-..., written afresh on every run.
 */
import { mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"

export const STEP_SCREENSHOT_ROOT = join(__dirname, "..", "screenshots")

export function stepScreenshots(testName: string): (page: Page, step: string) => Promise<void> {
  const dir = join(STEP_SCREENSHOT_ROOT, testName)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  let count = 0
  return async (page, step) => {
    count += 1
    // Transitions stopped, so no shot catches a dialog mid-fade.
    await page.screenshot({
      path: join(dir, `${String(count).padStart(2, "0")}-${step}.png`),
      fullPage: true,
      animations: "disabled",
    })
  }
}
