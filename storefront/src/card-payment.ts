/**
 * A card payment in the gateway's fields inside the checkout page (XPay Build), from loading
 * the SDK to the outcome: it loads the SDK once, mounts the fields, follows the SDK's
 * callbacks, confirms the card when the shopper asks to pay, has the store pay with it, sends
 * the browser to a 3-D Secure challenge when there is one, and completes the cart. Every step
 * is reported as a state the page renders:
 *
 *   loading      the SDK and the fields are on their way
 *   ready        the shopper can type the card and pay (a `notice` says why the last try did not go through)
 *   invalid      as ready, with the fields the gateway found wrong in `problems`
 *   paying       the fields check the card, the store pays, the cart is completed
 *   challenge    the browser is on its way to the 3-D Secure challenge (`url`); it returns to the result page
 *   paid         the cart is an order (`orderId`)
 *   declined     not paid (`reason`): a new payment session lets the shopper try another card
 *   expired      the fields can no longer pay: the session expired, or the cart changed since they opened
 *   pending      paid or not, the bank has not said yet: check again later
 *   unavailable  the fields could not be shown (`message`)
 *
 * The store's work comes in as functions (a server action, or the kit's calls with the store
 * client): `finalize` is finalizeCardPayment, `settle` is resolveReturn, which completes the cart.
 */
import {
  type BuildConstructor,
  type BuildEvent,
  type BuildInstance,
  type BuildOptions,
  loadBuildSdk,
  mountCardFields,
} from "./build-sdk.js"
import type { CardFieldsNextStep, CardFieldsSession } from "./card-fields.js"
import type { PaymentOutcome } from "./payment-outcome.js"
import { type PollOptions, pollPaymentOutcome } from "./polling.js"

/** A field the gateway found wrong: its code (HF0001 ...) and message, by field id. */
export type FieldProblems = Record<string, { code: string; message: string }>

export type CardPaymentNotice = {
  /**
   * service_unavailable: the gateway could not check the card (HF0002, HF0007); no_answer: the
   * fields did not answer in time; card_refused: the fields refused the card without naming a
   * field; store_error: the store could not be asked to pay. The shopper can try again.
   */
  code: "service_unavailable" | "no_answer" | "card_refused" | "store_error"
  message?: string
}

export type CardPaymentState =
  | { status: "loading" }
  | { status: "ready" | "invalid"; problems: FieldProblems; notice?: CardPaymentNotice }
  | { status: "paying" }
  | { status: "challenge"; url: string }
  | { status: "paid"; orderId: string }
  | { status: "declined"; reason: string | null }
  | { status: "expired"; cause: "session_expired" | "cart_changed" }
  | { status: "pending" }
  | { status: "unavailable"; message: string }

/** The SDK's styling options: a stylesheet every field loads, and the classes of its input and container. */
export interface CardFieldsStyle {
  /** Absolute, or relative to the page (made absolute here): the fields are on the gateway's origin. */
  cssLink?: string
  componentClassName?: string
  containerClassName?: string
}

export interface CardPaymentWork {
  /** Has the store pay with the confirmed card: finalizeCardPayment(client, { cartId, sessionId }), or a server action. */
  finalize: (signal: AbortSignal) => Promise<CardFieldsNextStep>
  /** Completes the cart or says why not: resolveReturn(client, { cartId }), or a server action. */
  settle: (signal: AbortSignal) => Promise<PaymentOutcome>
}

export interface CardPaymentOptions extends CardPaymentWork {
  session: CardFieldsSession
  /** Where fields go that the page has no element for (an element with the field's id). */
  container: HTMLElement
  onState: (state: CardPaymentState) => void
  style?: CardFieldsStyle
  /** The SDK's Subresource Integrity (loadBuildSdk). */
  integrity?: string
  /** Each field's accessible name, by field id. */
  titles?: Record<string, string>
  /** Sends the browser to the challenge; a full-page navigation by default. */
  navigate?: (url: string) => void
  /** The wait for an outcome the gateway has not decided yet (pollPaymentOutcome). */
  poll?: PollOptions
  /** How long the fields may take to check the card; 30 s by default. */
  confirmTimeoutMs?: number
  /** The SDK's loader; loadBuildSdk by default. */
  loadSdk?: (document: Document, src: string, options: { integrity?: string }) => Promise<BuildConstructor>
}

export interface CardPayment {
  /** The shopper's "Pay": the fields check the card, then the store pays. Ignored unless ready or invalid. */
  pay(): void
  /** In `pending`: asks again whether the payment went through. */
  checkAgain(): void
  /** Removes the fields and ignores the SDK from now on (the page moves on, or a new session replaces this one). */
  stop(): void
}

// The states after which the fields' news changes nothing.
const FINAL = new Set<CardPaymentState["status"]>(["challenge", "paid", "declined", "expired"])
// The SDK's states that mean the card is confirmed or the session moved on: the store says what next.
const SETTLING_STATES = new Set(["READY_FOR_PAYMENT", "REDIRECTED_TO_EXTERNAL_DOMAIN", "PAYMENT_COMPLETE"])
const SESSION_EXPIRED = "HF0003"
const GATEWAY_TROUBLE = new Set(["HF0002", "HF0007"])
const THREE_D_SECURE_FAILED = "HF0009"

function styleOptions(style: CardFieldsStyle | undefined, document: Document): Partial<BuildOptions> {
  return {
    ...(style?.cssLink ? { cssLink: new URL(style.cssLink, document.baseURI).href } : {}),
    ...(style?.componentClassName ? { defaultComponentCssClassName: style.componentClassName } : {}),
    ...(style?.containerClassName ? { defaultContainerCssClassName: style.containerClassName } : {}),
  }
}

/** Starts the payment: the fields load at once; `onState` hears every state, `loading` first. */
export function startCardPayment(options: CardPaymentOptions): CardPayment {
  const { session, container } = options
  const document = container.ownerDocument
  const controller = new AbortController()
  const { signal } = controller
  let state: CardPaymentState = { status: "loading" }
  let build: BuildInstance | undefined
  let unmount: (() => void) | undefined
  const problems: FieldProblems = {}
  // READY_FOR_PAYMENT came while the shopper was not paying (an SDK that confirms on its own).
  let confirmed = false
  // The store was asked to pay: from then on only its answer moves the state.
  let finalizing = false
  let confirmTimer: ReturnType<typeof setTimeout> | undefined

  const set = (next: CardPaymentState) => {
    if (signal.aborted) return
    state = next
    options.onState(next)
  }
  const accepting = () => state.status === "ready" || state.status === "invalid"
  const entering = (notice?: CardPaymentNotice) =>
    set({
      status: Object.keys(problems).length ? "invalid" : "ready",
      problems: { ...problems },
      ...(notice ? { notice } : {}),
    })
  const stopWaitingForFields = () => clearTimeout(confirmTimer)
  const expire = () => {
    if (!FINAL.has(state.status) && !finalizing) set({ status: "expired", cause: "session_expired" })
  }

  async function settle({ poll }: { poll: boolean }): Promise<void> {
    set({ status: "paying" })
    let outcome: PaymentOutcome
    try {
      outcome = poll
        ? await pollPaymentOutcome((pollSignal) => options.settle(pollSignal ?? signal), { signal, poll: options.poll })
        : await options.settle(signal)
    } catch {
      // Paid or not, the store could not say: the payment may have gone through.
      return set({ status: "pending" })
    }
    if (outcome.state === "order_placed") return set({ status: "paid", orderId: outcome.orderId })
    // The store refused to pay and the cart is no order: it changed since the fields opened.
    if (!poll || outcome.state === "no_payment") return set({ status: "expired", cause: "cart_changed" })
    if (outcome.state === "pending") return set({ status: "pending" })
    set({ status: "declined", reason: outcome.reason })
  }

  async function finalize(): Promise<void> {
    finalizing = true
    let next: CardFieldsNextStep
    try {
      next = await options.finalize(signal)
    } catch (error) {
      finalizing = false
      // Paying again confirms again; the store pays a session once, so a lost answer is answered the same.
      return entering({ code: "store_error", message: (error as Error).message })
    }
    if (signal.aborted) return
    switch (next.next) {
      case "redirect":
        set({ status: "challenge", url: next.url })
        return (options.navigate ?? ((url: string) => document.defaultView?.location.assign(url)))(next.url)
      case "declined":
        return set({ status: "declined", reason: next.reason })
      case "start_again":
        return settle({ poll: false })
      default:
        return settle({ poll: true })
    }
  }

  const fieldsLoaded = () => {
    if (state.status === "loading") entering()
  }

  const callbacks: BuildOptions = {
    onAllFieldsLoaded: fieldsLoaded,
    onBuildSuccess(event: BuildEvent) {
      if (signal.aborted || !event?.id) return
      confirmed = false
      delete problems[event.id]
      if (accepting()) entering()
    },
    onBuildError(event: BuildEvent) {
      if (signal.aborted) return
      if (event?.errorCode === SESSION_EXPIRED) return expire()
      if (event?.errorCode === THREE_D_SECURE_FAILED && !FINAL.has(state.status)) {
        return set({ status: "declined", reason: event.errorMessage ?? null })
      }
      if (!event?.id) return
      confirmed = false
      problems[event.id] = { code: event.errorCode ?? "HF0001", message: event.errorMessage ?? "" }
      if (accepting()) entering()
    },
    onConfirmError(event: BuildEvent) {
      if (signal.aborted || state.status !== "paying" || finalizing) return
      stopWaitingForFields()
      if (event?.errorCode === SESSION_EXPIRED) return expire()
      const checked = Array.isArray(event?.validationStatus) ? event.validationStatus : []
      for (const field of checked) {
        if (!field?.id) continue
        if (field.valid) delete problems[field.id]
        else {
          problems[field.id] = {
            code: field.errorCode ?? event.errorCode ?? "HF0001",
            message: field.errorMessage ?? "",
          }
        }
      }
      if (checked.some((field) => field?.valid === false)) return entering()
      const code = GATEWAY_TROUBLE.has(event?.errorCode ?? "") ? "service_unavailable" : "card_refused"
      entering({ code, ...(event?.errorMessage ? { message: event.errorMessage } : {}) })
    },
    onBuildFlowStateChange(event: BuildEvent, flowState?: string) {
      if (signal.aborted) return
      const reported = flowState ?? event?.state ?? event?.data?.state
      if (!reported || !SETTLING_STATES.has(reported) || finalizing) return
      // Never pay before the shopper asked to: remember it for their "Pay".
      if (state.status !== "paying") {
        confirmed = true
        return
      }
      stopWaitingForFields()
      void finalize()
    },
  }

  async function open(): Promise<void> {
    const loadSdk = options.loadSdk ?? loadBuildSdk
    try {
      const Build = await loadSdk(document, session.sdkUrl, { integrity: options.integrity })
      if (signal.aborted) return
      build = new Build({ ...callbacks, ...styleOptions(options.style, document) })
      unmount = mountCardFields(session.fields, { container, titles: options.titles, onAllLoaded: fieldsLoaded })
    } catch (error) {
      set({ status: "unavailable", message: (error as Error).message })
    }
  }

  set(state)
  if (session.status === "error" || session.status === "canceled") {
    set({ status: "declined", reason: session.reason })
  } else if (session.status === "authorized" || session.status === "captured") {
    // Paid already (a page opened again after paying): only the cart is left to complete.
    void settle({ poll: true })
  } else {
    void open()
  }

  return {
    pay() {
      if (!accepting() || !build) return
      set({ status: "paying" })
      if (confirmed) return void finalize()
      confirmTimer = setTimeout(() => {
        if (state.status === "paying" && !finalizing) entering({ code: "no_answer" })
      }, options.confirmTimeoutMs ?? 30_000)
      try {
        build.confirmData()
      } catch (error) {
        stopWaitingForFields()
        entering({ code: "service_unavailable", message: (error as Error).message })
      }
    },
    checkAgain() {
      if (state.status === "pending") void settle({ poll: true })
    },
    stop() {
      controller.abort()
      stopWaitingForFields()
      unmount?.()
    },
  }
}
