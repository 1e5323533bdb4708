/**
 * A stand-in for the gateway's browser SDK (the global `Build`), for the kit's tests: each
 * instance made is kept with the options it was given and counts its confirmData calls, so a
 * test drives the payment through the options' callbacks as the real SDK calls them.
 */
import type { BuildOptions } from "../build-sdk.js"

export function fakeBuildSdk() {
  const made: Array<{ options: BuildOptions; confirms: number }> = []
  class Build {
    confirms = 0
    constructor(readonly options: BuildOptions) {
      made.push(this)
    }
    confirmData() {
      this.confirms += 1
    }
  }
  return { Build, made }
}
