/**
 * Asking again while a payment is pending, with a growing pause and an end. The plugin reads a
 * pending payment from the gateway at most once every three seconds per session, so polling
 * faster brings nothing; and a shopper who left must not leave a loop running, so every wait
 * ends on an AbortSignal.
 */
import type { NexiStoreClient, RequestOptions } from "./client.js"
import { type PaymentOutcome, readPaymentOutcome, type SessionOfCart } from "./payment-outcome.js"

export interface PollOptions {
  /** The first pause; default 2 s. */
  firstDelayMs?: number
  /** Each pause is 1.5 times the last, up to this; default 8 s. */
  maxDelayMs?: number
  /** No pause starts after this much waiting in all; default 60 s (a mobile payment may take minutes: give it more). */
  giveUpAfterMs?: number
}

const DEFAULT_POLL = { firstDelayMs: 2_000, maxDelayMs: 8_000, giveUpAfterMs: 60_000 }
const GROWTH = 1.5

/** The pauses between checks: growing, capped, and adding up to no more than giveUpAfterMs. */
export function pollDelays(options: PollOptions = {}): number[] {
  const { firstDelayMs, maxDelayMs, giveUpAfterMs } = { ...DEFAULT_POLL, ...options }
  for (const [name, value] of Object.entries({ firstDelayMs, maxDelayMs, giveUpAfterMs })) {
    if (!Number.isFinite(value) || value <= 0)
      throw new RangeError(`${name}: must be a positive number of milliseconds`)
  }
  const delays: number[] = []
  let waited = 0
  for (
    let delay = Math.min(firstDelayMs, maxDelayMs);
    waited + delay <= giveUpAfterMs;
    delay = Math.min(delay * GROWTH, maxDelayMs)
  ) {
    delays.push(Math.round(delay))
    waited += delay
  }
  return delays
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })
}

export interface PollControl {
  /** Stops the polling: the promise rejects with the signal's reason. */
  signal?: AbortSignal
  poll?: PollOptions
  /** Every outcome as it comes, pending ones included (to show an approval link, say). */
  onOutcome?: (outcome: PaymentOutcome) => void
}

/**
 * Runs `check` until it answers something other than pending, or the pauses run out: then it
 * answers the last pending outcome, and the page says the bank has not answered yet.
 */
export async function pollPaymentOutcome(
  check: (signal?: AbortSignal) => Promise<PaymentOutcome>,
  control: PollControl = {},
): Promise<PaymentOutcome> {
  const { signal, poll, onOutcome } = control
  const delays = pollDelays(poll)
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted()
    const outcome = await check(signal)
    // A check that cannot be abandoned (a server action) still answers: nobody wants it any more.
    signal?.throwIfAborted()
    onOutcome?.(outcome)
    if (outcome.state !== "pending" || attempt === delays.length) return outcome
    await pause(delays[attempt], signal)
  }
}

/** Polls the status route for one session: the mobile payment's wait, or a result page that came back too early. */
export function waitForPaymentOutcome(
  client: NexiStoreClient,
  session: SessionOfCart,
  control: PollControl & Pick<RequestOptions, "headers"> = {},
): Promise<PaymentOutcome> {
  return pollPaymentOutcome(
    (signal) => readPaymentOutcome(client, session, { headers: control.headers, signal }),
    control,
  )
}
