/**
 * The simulator's notion of "now". Tests shift it (POST /__sim/clock) to make an operation
 * look as if it happened yesterday, which is the only way to exercise same-day rules such
 * as "a capture can be cancelled only on the day it was made" without waiting a day.
 */
export class SimClock {
  private offsetMs = 0

  now(): Date {
    return new Date(Date.now() + this.offsetMs)
  }

  getOffsetMs(): number {
    return this.offsetMs
  }

  setOffsetMs(offsetMs: number): void {
    this.offsetMs = offsetMs
  }
}
