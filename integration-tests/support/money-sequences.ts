/**
 * Random sequences of money steps on one card payment, for the property suite
 * (integration-tests/faults/money-property.spec.ts). Pure: one seed gives the same sequences.
 *
 * A sequence opens with the payment's one capture (the gateway takes one per authorization):
 * Medusa's, partial or whole, or one made in Nexi's back office. Then refunds by Medusa and in
 * the back office, second captures the gateway must refuse, and syncs. Each capture or refund
 * Medusa asks for meets a fault (FAULTS). Amounts carry one decimal more than the currency has
 * (tenths of a minor unit), half of them ending in 5, so rounding matters.
 *
 * A small model of both books keeps each step one staff could ask for: never more refunded than
 * is left on either side. A fault that makes the gateway unreadable is kept for writes the plugin
 * sends with the gateway unreadable: none while an earlier write's outcome is unknown, no refund
 * while Medusa's payment does not name the capture (made in the back office, or by a workflow that
 * died), whose operation only the gateway could tell. The plugin refuses those before sending
 * anything. The suite checks properties of what happened, not this model.
 */
import BigNumber from "bignumber.js"

export type Currency = "EUR" | "JPY" | "KWD"

const EXPONENT: Record<Currency, number> = { EUR: 2, JPY: 0, KWD: 3 }

/** Every step moves at least this many minor units, so a step that moved twice stands out from rounding. */
const SMALLEST_STEP_MINOR = 100n

/**
 * What a capture or refund Medusa asks for meets:
 * - none: it goes through;
 * - repeated-same-id: it goes through, and the provider is called again for the same Medusa row
 *   (as Medusa's workflow engine retrying the step would);
 * - answer-lost-once: the gateway makes it, the answer is lost, the transport's retry (same key) gets it;
 * - answer-lost-read-back: every attempt's answer is lost, the read of the gateway's order finds it made;
 * - never-arrived-retry: no attempt reaches the gateway, the read finds it not made, Medusa
 *   deletes its row; staff ask again (a new Medusa id);
 * - lost-unreadable-retry: made, every answer lost and the order unreadable ("Do not try
 *   again"), Medusa deletes its row; staff ask again all the same, for the same amount;
 * - lost-unreadable-left: the same, and nobody asks again: a sync finds it;
 * - died-after-send / died-before-send: the store dies mid-call, its request made at the gateway
 *   or not (the suite's header says how this is modelled).
 */
export const FAULTS = [
  "none",
  "repeated-same-id",
  "answer-lost-once",
  "answer-lost-read-back",
  "never-arrived-retry",
  "lost-unreadable-retry",
  "lost-unreadable-left",
  "died-after-send",
  "died-before-send",
] as const
export type Fault = (typeof FAULTS)[number]

const FAULT_WEIGHTS: Record<Fault, number> = {
  none: 2,
  "repeated-same-id": 1,
  "answer-lost-once": 1,
  "answer-lost-read-back": 1,
  "never-arrived-retry": 1,
  "lost-unreadable-retry": 1.5,
  "lost-unreadable-left": 1.5,
  "died-after-send": 1,
  "died-before-send": 1,
}

/** Faults that leave the write's outcome unknown to the ledger until the gateway is read again. */
const LEAVES_UNKNOWN: ReadonlySet<Fault> = new Set([
  "lost-unreadable-retry",
  "lost-unreadable-left",
  "died-after-send",
  "died-before-send",
])

export type Step =
  /** Medusa's capture; no amount captures the whole payment. */
  | { kind: "capture"; amount?: string; fault: Fault }
  | { kind: "refund"; amount: string; fault: Fault }
  /** A second capture by Medusa: the gateway takes one per authorization, so nothing may move. */
  | { kind: "second-capture"; amount: string }
  | { kind: "back-office-capture"; minor: string }
  | { kind: "back-office-refund"; minor: string }
  /** Staff's Sync of the payment. */
  | { kind: "sync" }

export interface Sequence {
  index: number
  currency: Currency
  /** The product's price, in major units with a tenth of a minor unit. */
  unitPrice: string
  quantity: number
  /** What the shopper pays, as Medusa holds it: unitPrice × quantity. */
  paymentAmount: string
  steps: Step[]
  /** The one capture's minor units, as the gateway must hold it. */
  captureMinor: string
}

/** xorshift32: a seeded generator of floats in [0, 1). */
function randomSource(seed: number) {
  let state = seed >>> 0 || 0x9e3779b9
  const next = () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 2 ** 32
  }
  return {
    chance: (probability: number) => next() < probability,
    /** A whole number in [low, high]. */
    between: (low: bigint, high: bigint) => low + BigInt(Math.floor(next() * Number(high - low + 1n))),
    weighted<T extends string>(weights: Partial<Record<T, number>>): T {
      const entries = Object.entries(weights) as Array<[T, number]>
      let point = next() * entries.reduce((sum, [, weight]) => sum + weight, 0)
      for (const [value, weight] of entries) {
        point -= weight
        if (point < 0) return value
      }
      return entries[entries.length - 1][0]
    },
  }
}
type Random = ReturnType<typeof randomSource>

/** Both books as the steps so far leave them (the model). */
class Books {
  readonly exponent: number
  readonly payment: BigNumber
  readonly authorizedMinor: bigint
  capture?: { minor: bigint; inMedusa: boolean; madeAtGateway: boolean }
  medusaCaptured = new BigNumber(0)
  medusaRefunded = new BigNumber(0)
  /** Refunds the gateway made that Medusa shows only after a sync (lost answers, the back office). */
  refundsToRecordMinor = 0n
  gatewayRefundedMinor = 0n
  /** A write whose outcome the ledger does not know yet. */
  unknownWrite = false
  /** Medusa's payment data names the capture's operation: a refund can be sent without reading the gateway. */
  captureNamed = false

  constructor(
    readonly currency: Currency,
    payment: BigNumber,
  ) {
    this.exponent = EXPONENT[currency]
    this.payment = payment
    this.authorizedMinor = this.minor(payment)
  }

  /** Rounded half-up to the currency's minor unit, as the plugin rounds. */
  minor(amount: BigNumber): bigint {
    return BigInt(amount.shiftedBy(this.exponent).integerValue(BigNumber.ROUND_HALF_UP).toFixed(0))
  }

  major(minor: bigint): BigNumber {
    return new BigNumber(minor.toString()).shiftedBy(-this.exponent)
  }

  /** What a Medusa refund of `amount` sends by totals. */
  refundMinor(amount: BigNumber): bigint {
    return this.minor(this.medusaRefunded.plus(amount)) - this.minor(this.medusaRefunded)
  }

  /** What Medusa may still refund, counting the refunds the next sync records. */
  medusaRefundable(): BigNumber {
    return this.medusaCaptured.minus(this.medusaRefunded).minus(this.major(this.refundsToRecordMinor))
  }

  gatewayRefundableMinor(): bigint {
    return (this.capture?.minor ?? 0n) - this.gatewayRefundedMinor
  }

  /** A plugin write that reads a readable gateway first settles every earlier write (and sends one never made). */
  earlierWritesSettled(): void {
    this.unknownWrite = false
    if (this.capture?.inMedusa) this.capture.madeAtGateway = true
  }

  apply(step: Step): void {
    switch (step.kind) {
      case "capture": {
        const amount = new BigNumber(step.amount ?? this.payment)
        const inMedusa = step.fault !== "lost-unreadable-left"
        this.capture = { minor: this.minor(amount), inMedusa, madeAtGateway: step.fault !== "died-before-send" }
        if (inMedusa) this.medusaCaptured = amount
        this.unknownWrite = LEAVES_UNKNOWN.has(step.fault) && step.fault !== "lost-unreadable-retry"
        this.captureNamed = !step.fault.startsWith("died")
        return
      }
      case "refund": {
        if (!LEAVES_UNKNOWN.has(step.fault)) this.earlierWritesSettled()
        const amount = new BigNumber(step.amount)
        const sent = this.refundMinor(amount)
        this.gatewayRefundedMinor += sent
        if (step.fault === "lost-unreadable-left") this.refundsToRecordMinor += sent
        else this.medusaRefunded = this.medusaRefunded.plus(amount)
        if (LEAVES_UNKNOWN.has(step.fault) && step.fault !== "lost-unreadable-retry") this.unknownWrite = true
        // A refund sent with the gateway read names the capture in Medusa's payment from then on.
        if (!LEAVES_UNKNOWN.has(step.fault) || step.fault === "lost-unreadable-retry") this.captureNamed = true
        return
      }
      case "second-capture":
        this.earlierWritesSettled()
        return
      case "back-office-capture":
        this.capture = { minor: BigInt(step.minor), inMedusa: false, madeAtGateway: true }
        return
      case "back-office-refund":
        this.gatewayRefundedMinor += BigInt(step.minor)
        this.refundsToRecordMinor += BigInt(step.minor)
        return
      case "sync":
        this.earlierWritesSettled()
        this.medusaRefunded = this.medusaRefunded.plus(this.major(this.refundsToRecordMinor))
        this.refundsToRecordMinor = 0n
        if (this.capture && !this.capture.inMedusa) {
          this.capture.inMedusa = true
          this.medusaCaptured = this.major(this.capture.minor)
        }
        return
    }
  }
}

/** An amount in tenths of a minor unit between two amounts of minor units; half of them end in 5. */
function amountBetween(random: Random, books: Books, lowMinor: bigint, highMinor: bigint): BigNumber {
  let tenths = random.between(lowMinor * 10n, highMinor * 10n)
  if (random.chance(0.5)) tenths = (tenths / 10n) * 10n + 5n
  if (tenths > highMinor * 10n) tenths -= 10n
  return new BigNumber(tenths.toString()).shiftedBy(-(books.exponent + 1))
}

/** The tenths of a minor unit `amount` holds, rounded down (to keep a bound). */
function floorTenths(books: Books, amount: BigNumber): bigint {
  return BigInt(
    amount
      .shiftedBy(books.exponent + 1)
      .integerValue(BigNumber.ROUND_FLOOR)
      .toFixed(0),
  )
}

/** `unreadable`: whether the write may be sent with the gateway unreadable (see the header). */
function pickFault(random: Random, unreadable: boolean): Fault {
  const allowed = Object.fromEntries(
    FAULTS.filter((fault) => unreadable || !LEAVES_UNKNOWN.has(fault)).map((fault) => [fault, FAULT_WEIGHTS[fault]]),
  ) as Partial<Record<Fault, number>>
  return random.weighted(allowed)
}

function firstCapture(random: Random, books: Books): Step {
  const whole = random.chance(0.4)
  if (random.chance(0.25)) {
    const minor = whole ? books.authorizedMinor : random.between(SMALLEST_STEP_MINOR, books.authorizedMinor - 100n)
    return { kind: "back-office-capture", minor: minor.toString() }
  }
  const fault = pickFault(random, true)
  if (whole) return { kind: "capture", fault }
  const amount = amountBetween(random, books, SMALLEST_STEP_MINOR, books.authorizedMinor - 100n)
  return { kind: "capture", amount: amount.toFixed(), fault }
}

/** A Medusa refund both books have room for; sometimes exactly what Medusa has left. */
function refund(random: Random, books: Books): Step | undefined {
  if (!books.capture?.inMedusa) return undefined
  const refundable = books.medusaRefundable()
  const gatewayLeft = books.gatewayRefundableMinor()
  const fault = pickFault(random, !books.unknownWrite && books.captureNamed)
  if (
    books.refundsToRecordMinor === 0n &&
    random.chance(0.2) &&
    books.minor(refundable) >= SMALLEST_STEP_MINOR &&
    books.refundMinor(refundable) <= gatewayLeft
  )
    return { kind: "refund", amount: refundable.toFixed(), fault }
  const highTenths = [floorTenths(books, refundable), (gatewayLeft - 1n) * 10n].reduce((a, b) => (a < b ? a : b))
  if (highTenths < SMALLEST_STEP_MINOR * 10n) return undefined
  let amount = amountBetween(random, books, SMALLEST_STEP_MINOR, highTenths / 10n)
  while (books.refundMinor(amount) > gatewayLeft) amount = amount.minus(books.major(1n))
  return { kind: "refund", amount: amount.toFixed(), fault }
}

function backOfficeRefund(random: Random, books: Books): Step | undefined {
  const left = books.gatewayRefundableMinor()
  if (!books.capture?.madeAtGateway || left < SMALLEST_STEP_MINOR * 2n) return undefined
  return { kind: "back-office-refund", minor: random.between(SMALLEST_STEP_MINOR, left / 2n).toString() }
}

/** A capture after the first: of an amount the first is not, so the gateway refuses it. */
function secondCapture(random: Random, books: Books): Step | undefined {
  const leftMinor = books.minor(books.payment.minus(books.medusaCaptured))
  if (!books.capture || leftMinor < SMALLEST_STEP_MINOR + 100n) return undefined
  const amount = amountBetween(random, books, SMALLEST_STEP_MINOR, leftMinor - 100n)
  // With no capture in Medusa yet, one of the gateway's amount would be that capture, recorded.
  if (!books.capture.inMedusa && books.minor(amount) === books.capture.minor) return undefined
  return { kind: "second-capture", amount: amount.toFixed() }
}

const LATER_STEPS = {
  refund: { weight: 5, make: refund },
  "back-office-refund": { weight: 2, make: backOfficeRefund },
  "second-capture": { weight: 1, make: secondCapture },
  sync: { weight: 1, make: (): Step => ({ kind: "sync" }) },
} satisfies Record<string, { weight: number; make: (random: Random, books: Books) => Step | undefined }>

/** One refused second capture says what two say; a sync right after a sync reads nothing new. */
function addsSomething(step: Step, steps: Step[]): boolean {
  if (step.kind === "second-capture") return !steps.some((earlier) => earlier.kind === "second-capture")
  if (step.kind === "sync") return steps[steps.length - 1].kind !== "sync"
  return true
}

function generateSequence(random: Random, index: number, currency: Currency, length: number): Sequence {
  const quantity = Number(random.between(1n, 3n))
  const probe = new Books(currency, new BigNumber(0))
  const unitPrice = amountBetween(random, probe, 2_000n, 6_000n)
  const paymentAmount = unitPrice.times(quantity)
  const books = new Books(currency, paymentAmount)
  const steps: Step[] = [firstCapture(random, books)]
  books.apply(steps[0])
  for (let tries = 0; steps.length < length && tries < 50; tries++) {
    const kind = random.weighted(
      Object.fromEntries(Object.entries(LATER_STEPS).map(([name, { weight }]) => [name, weight])) as Record<
        keyof typeof LATER_STEPS,
        number
      >,
    )
    const step = LATER_STEPS[kind].make(random, books)
    if (!step || !addsSomething(step, steps)) continue
    steps.push(step)
    books.apply(step)
  }
  return {
    index,
    currency,
    unitPrice: unitPrice.toFixed(),
    quantity,
    paymentAmount: paymentAmount.toFixed(),
    steps,
    captureMinor: (books.capture?.minor ?? 0n).toString(),
  }
}

/** `count` sequences of 4 to 7 steps, the currencies in turn. */
export function generateSequences(seed: number, count: number): Sequence[] {
  const random = randomSource(seed)
  const currencies: Currency[] = ["EUR", "JPY", "KWD"]
  return Array.from({ length: count }, (_, index) =>
    generateSequence(random, index, currencies[index % currencies.length], Number(random.between(4n, 7n))),
  )
}

/** A step in words, for the test's name. */
export function stepText(step: Step): string {
  switch (step.kind) {
    case "capture":
      return `capture ${step.amount ?? "all"} (${step.fault})`
    case "refund":
      return `refund ${step.amount} (${step.fault})`
    case "second-capture":
      return `second capture ${step.amount}`
    case "back-office-capture":
      return `back-office capture ${step.minor} minor`
    case "back-office-refund":
      return `back-office refund ${step.minor} minor`
    case "sync":
      return "sync"
  }
}
