/**
 * XPay Build in React: `useCardPayment` runs startCardPayment (card-payment.ts) for the cart's
 * card session and answers its state; `NexiCardFields` renders it: a row per field (its label,
 * the element the gateway's iframe goes in, what is wrong with it), a status line, and the
 * button the state calls for (Pay, Check again, Start again). The fields themselves are styled
 * through the SDK's options (`style`), everything around them through the class names given.
 */
import { createElement as h, useCallback, useEffect, useMemo, useRef, useState } from "react"
import { type CardField, type CardFieldsSession, cardFieldsOf } from "../card-fields.js"
import {
  type CardPayment,
  type CardPaymentOptions,
  type CardPaymentState,
  type CardPaymentWork,
  startCardPayment,
} from "../card-payment.js"
import type { PaymentSessionLike } from "../hosted-page.js"
import { useLatest } from "./latest.js"

export interface UseCardPaymentOptions
  extends Pick<CardPaymentOptions, "style" | "integrity" | "navigate" | "poll" | "confirmTimeoutMs" | "loadSdk"> {
  /** The cart's card session, created with cardSessionData({ integration: "build" }). */
  session: PaymentSessionLike | undefined
  finalize: CardPaymentWork["finalize"]
  settle: CardPaymentWork["settle"]
  /** Each field's label, by field id (the defaults are English). */
  titles?: Record<string, string>
  /** Opens a new payment session for the cart (new fields): after a decline, an expiry or a changed cart. */
  renew?: () => Promise<void> | void
  /** The cart is an order: show its confirmation. */
  onPaid?: (orderId: string) => void
}

export interface CardPaymentView {
  state: CardPaymentState
  /** The session's fields, in the order to show them; empty when it has none. */
  fields: CardField[]
  pay: () => void
  checkAgain: () => void
  /** Runs `renew`; `renewal` is "running" until the new session arrives, "failed" if renew threw. */
  renew: () => Promise<void>
  renewal: "idle" | "running" | "failed"
  /** Give it the element that holds the fields' rows (or where they are to be made). */
  containerRef: (element: HTMLElement | null) => void
}

export const DEFAULT_FIELD_TITLES: Record<string, string> = {
  CARD_NUMBER: "Card number",
  EXPIRATION_DATE: "Expiry date (MM/YY)",
  SECURITY_CODE: "Security code (CVV)",
  CARDHOLDER_NAME: "Cardholder name",
  CARDHOLDER_SURNAME: "Cardholder surname",
  CARDHOLDER_EMAIL: "Email",
  PRIVACY_CONDITIONS: "Privacy conditions",
}

type Parsed = { session: CardFieldsSession; problem?: undefined } | { session?: undefined; problem: string }

/** What identifies a session's fields: a new payment session, or a new gateway session in it, starts over. */
function keyOf(session: PaymentSessionLike | undefined): string {
  return `${session?.id ?? ""} ${String(session?.data?.build_session_id ?? "")} ${String(session?.data?.status ?? "")}`
}

/** The state of the cart's card payment in the gateway's fields; they load into the element given to `containerRef`. */
export function useCardPayment(options: UseCardPaymentOptions): CardPaymentView {
  const latest = useLatest(options)
  const key = keyOf(options.session)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when the session's fields changed
  const parsed = useMemo<Parsed>(() => {
    try {
      return { session: cardFieldsOf(latest.current.session) }
    } catch (error) {
      return { problem: (error as Error).message }
    }
  }, [key])
  const [container, setContainer] = useState<HTMLElement | null>(null)
  const [state, setState] = useState<CardPaymentState>({ status: "loading" })
  const payment = useRef<CardPayment | undefined>(undefined)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the options are read through a ref when the fields start
  useEffect(() => {
    if (!container) return
    if (!parsed.session) {
      setState({ status: "unavailable", message: parsed.problem })
      return
    }
    const { style, integrity, navigate, poll, confirmTimeoutMs, loadSdk } = latest.current
    const started = startCardPayment({
      session: parsed.session,
      container,
      onState: (next) => {
        setState(next)
        // Told at once, not after the next render: the action that placed the order may have
        // revalidated the page already (the cart is gone), and the render that brings it
        // unmounts these fields before an effect of theirs could run.
        if (next.status === "paid") latest.current.onPaid?.(next.orderId)
      },
      finalize: (signal) => latest.current.finalize(signal),
      settle: (signal) => latest.current.settle(signal),
      titles: { ...DEFAULT_FIELD_TITLES, ...latest.current.titles },
      ...{ style, integrity, navigate, poll, confirmTimeoutMs, loadSdk },
    })
    payment.current = started
    return () => {
      started.stop()
      payment.current = undefined
    }
  }, [container, parsed])
  const pay = useCallback(() => payment.current?.pay(), [])
  const checkAgain = useCallback(() => payment.current?.checkAgain(), [])
  const [renewal, setRenewal] = useState<CardPaymentView["renewal"]>("idle")
  // A new session came: its fields are the new start.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when the session changed
  useEffect(() => setRenewal("idle"), [key])
  const renew = useCallback(async () => {
    setRenewal("running")
    try {
      // Stays running until the new session arrives as a prop.
      await latest.current.renew?.()
    } catch {
      setRenewal("failed")
    }
  }, [latest])
  return { state, fields: parsed.session?.fields ?? [], pay, checkAgain, renew, renewal, containerRef: setContainer }
}

/** The component's words; pass the ones to change (the shopper's language, "Pay EUR 42.50"). */
export const DEFAULT_CARD_FIELDS_LABELS = {
  pay: "Pay",
  loading: "Loading the secure card fields…",
  invalid: "Check the card details marked.",
  paying: "Paying…",
  challenge: "Your bank asks you to confirm the payment: taking you there…",
  paid: "Paid: your order is placed.",
  declined: "The payment did not go through.",
  sessionExpired: "These card fields have expired.",
  cartChanged: "Your cart changed after the card fields opened: start again to pay the new total.",
  pending: "Your bank has not confirmed the payment yet.",
  unavailable: "The card fields could not be shown.",
  serviceUnavailable: "The payment service is temporarily unavailable: try again.",
  noAnswer: "The card fields did not answer: try again.",
  cardRefused: "The card was not accepted: check the details and try again.",
  storeError: "The shop could not take the payment just now: try again.",
  checkAgain: "Check again",
  startAgain: "Start again",
  tryAnotherCard: "Try another card",
  renewFailed: "New card fields could not be opened: try again.",
}

export type CardFieldsLabels = typeof DEFAULT_CARD_FIELDS_LABELS

export interface CardFieldsLook {
  labels?: Partial<CardFieldsLabels>
  className?: string
  /** Each field's row: its label, the element the iframe goes in, and what is wrong with it. */
  fieldClassName?: string
  buttonClassName?: string
}

export interface NexiCardFieldsProps extends UseCardPaymentOptions, CardFieldsLook {}

function statusText(state: CardPaymentState, labels: CardFieldsLabels): string {
  switch (state.status) {
    case "loading":
    case "paying":
    case "challenge":
    case "paid":
    case "pending":
    case "unavailable":
      return labels[state.status]
    case "declined":
      return state.reason ? `${labels.declined} ${state.reason}` : labels.declined
    case "expired":
      return state.cause === "cart_changed" ? labels.cartChanged : labels.sessionExpired
    default: {
      const notices = {
        service_unavailable: labels.serviceUnavailable,
        no_answer: labels.noAnswer,
        card_refused: state.notice?.message ?? labels.cardRefused,
        store_error: labels.storeError,
      }
      const notice = state.notice ? notices[state.notice.code] : ""
      return [state.status === "invalid" ? labels.invalid : "", notice].filter(Boolean).join(" ")
    }
  }
}

const SHOWS_FIELDS = new Set<CardPaymentState["status"]>(["loading", "ready", "invalid", "paying"])
const RENEWABLE = new Set<CardPaymentState["status"]>(["declined", "expired", "unavailable"])

/** What the page shows of a card payment: `NexiCardFields` without the work, for any state. */
export function CardFieldsView({
  view,
  look,
  canRenew,
}: {
  view: CardPaymentView
  look: CardFieldsLook & { titles?: Record<string, string> }
  canRenew: boolean
}) {
  const { state, fields, pay, checkAgain, renew, renewal, containerRef } = view
  const labels = { ...DEFAULT_CARD_FIELDS_LABELS, ...look.labels }
  const titles = { ...DEFAULT_FIELD_TITLES, ...look.titles }
  const problems = state.status === "ready" || state.status === "invalid" ? state.problems : {}
  const rows = fields.map((field) => {
    const problem = problems[field.id]
    return h(
      "div",
      {
        key: field.id,
        className: look.fieldClassName,
        "data-nexi-field-row": field.id,
        "data-invalid": problem ? "" : undefined,
      },
      h("span", { "data-nexi-field-label": "" }, titles[field.id] ?? field.id),
      h("div", { id: field.id }),
      problem
        ? h("p", { role: "alert", "data-nexi-field-problem": field.id }, problem.message || labels.invalid)
        : null,
    )
  })
  const button = (label: string, onClick: () => void, disabled = false) =>
    h("button", { type: "button", className: look.buttonClassName, onClick, disabled }, label)
  return h(
    "div",
    { className: look.className, "data-nexi-card-fields": "", "data-state": state.status },
    h("div", { ref: containerRef, hidden: !SHOWS_FIELDS.has(state.status) }, rows),
    h("p", { role: "status", "aria-live": "polite", "data-nexi-status": "" }, statusText(state, labels)),
    renewal === "failed" ? h("p", { role: "alert" }, labels.renewFailed) : null,
    SHOWS_FIELDS.has(state.status)
      ? button(labels.pay, pay, state.status !== "ready" && state.status !== "invalid")
      : null,
    state.status === "pending" ? button(labels.checkAgain, checkAgain) : null,
    RENEWABLE.has(state.status) && canRenew
      ? button(state.status === "declined" ? labels.tryAnotherCard : labels.startAgain, renew, renewal === "running")
      : null,
  )
}

/** The card fields with their states, the Pay button and the way on after each outcome. */
export function NexiCardFields(props: NexiCardFieldsProps) {
  return h(CardFieldsView, { view: useCardPayment(props), look: props, canRenew: props.renew !== undefined })
}
