/**
 * XPay Build, the store's side: a card session opened with `cardSessionData({ integration:
 * "build" })` carries the gateway's card fields and its browser SDK instead of a hosted page,
 * and once the fields confirmed a card the store pays with it
 * (`POST /store/nexi/payment-sessions/{id}/finalize`) and answers what the page does next.
 * The browser's side (the SDK, the fields, the states) is card-payment.ts.
 */
import { forwarded, type NexiStoreClient, type RequestOptions } from "./client.js"
import type { PaymentSessionLike } from "./hosted-page.js"
import { isNexiCardProvider } from "./providers.js"
import { isWebAddress } from "./web-address.js"

/** One card field: the gateway's page for it goes in an iframe inside the element whose DOM id is `id`. */
export interface CardField {
  /** CARD_NUMBER, EXPIRATION_DATE, SECURITY_CODE, CARDHOLDER_NAME; a terminal may add more (render every one). */
  id: string
  src: string
  type?: string
  class?: string
}

/** What a card session opened with `integration: "build"` holds for the page. */
export interface CardFieldsSession {
  /** Medusa's payment session: the finalize and status routes take its id. */
  sessionId: string
  /** The gateway's Build session: a new one with every new payment session (new fields). */
  buildSessionId: string
  fields: CardField[]
  /** The gateway's browser SDK (`…/monetaweb/resources/hfsdk.js`), which defines the global `Build`. */
  sdkUrl: string
  /** The plugin's status of the session: `error` or `canceled` once it failed, `authorized` once paid. */
  status: string
  /** Why it failed, in the shopper's words, when it did. */
  reason: string | null
}

/** Thrown when a session has no card fields to show: the checkout should start a new card session. */
export class NoCardFieldsError extends Error {
  constructor(problem: string) {
    super(`build_fields: ${problem}`)
    this.name = "NoCardFieldsError"
  }
}

// A field's id becomes a DOM id and its src an iframe's: nothing else may pass.
const FIELD_ID = /^[A-Z][A-Z0-9_]*$/

function fieldOf(value: unknown): CardField | undefined {
  if (typeof value !== "object" || value === null) return undefined
  const { id, src, type, class: className } = value as Record<string, unknown>
  if (typeof id !== "string" || !FIELD_ID.test(id) || typeof src !== "string" || !isWebAddress(src)) return undefined
  return {
    id,
    src,
    ...(typeof type === "string" ? { type } : {}),
    ...(typeof className === "string" ? { class: className } : {}),
  }
}

/** Whether a session was opened for the card fields (`integration: "build"`) rather than the hosted page. */
export function hasCardFields(session: PaymentSessionLike | undefined): boolean {
  return isNexiCardProvider(session?.provider_id) && typeof session?.data?.build_session_id === "string"
}

/** The card fields of a card session, or a NoCardFieldsError saying what to do. */
export function cardFieldsOf(session: PaymentSessionLike | undefined): CardFieldsSession {
  if (!session) throw new NoCardFieldsError("the cart has no Nexi payment session; choose the card payment again")
  if (!isNexiCardProvider(session.provider_id)) {
    throw new NoCardFieldsError(
      `${session.provider_id} is not a Nexi card provider; only card sessions have card fields`,
    )
  }
  const data = session.data ?? {}
  const listed = Array.isArray(data.build_fields) ? data.build_fields : []
  const fields = listed.map(fieldOf)
  const { build_session_id: buildSessionId, build_sdk: sdkUrl, status, reason } = data
  if (typeof buildSessionId !== "string" || !buildSessionId || listed.length === 0) {
    throw new NoCardFieldsError(
      'the session holds no card fields: create it with cardSessionData({ integration: "build" }) (a saved card pays on the hosted page)',
    )
  }
  if (fields.some((field) => field === undefined)) {
    throw new NoCardFieldsError("a field without an upper-case id and an http(s) src cannot be shown")
  }
  if (typeof sdkUrl !== "string" || !isWebAddress(sdkUrl)) {
    throw new NoCardFieldsError("build_sdk: the session holds no address of the gateway's SDK")
  }
  return {
    sessionId: session.id,
    buildSessionId,
    fields: fields as CardField[],
    sdkUrl,
    status: typeof status === "string" ? status : "pending",
    reason: typeof reason === "string" ? reason : null,
  }
}

/** What the page does once the store tried to pay with the card the fields confirmed. */
export type CardFieldsNextStep =
  /** Paid: complete the cart (resolveReturn does). */
  | { next: "complete_cart" }
  /** 3-D Secure asks for a challenge: send the browser to `url`; it comes back to the result page (resultUrl). */
  | { next: "redirect"; url: string }
  /** Not paid: show `reason`; a new payment session (new fields) lets the shopper try another card. */
  | { next: "declined"; reason: string }
  /** The gateway has no outcome yet: poll (resolveReturn, or the status route). */
  | { next: "wait" }
  /**
   * The store refused (409): the cart changed after the fields opened (a new payment session is
   * needed), or it is already an order (resolveReturn finds it). `reason` is the store's message.
   */
  | { next: "start_again"; reason: string }

const STEPS = new Set(["complete_cart", "redirect", "declined", "wait"])

function nextStepOf(answer: unknown): CardFieldsNextStep {
  const { next, url, reason } = (answer ?? {}) as Record<string, unknown>
  if (typeof next !== "string" || !STEPS.has(next)) {
    throw new Error(`The store's finalize answered no next step the kit knows (${JSON.stringify(answer)}).`)
  }
  if (next === "redirect") {
    // The page navigates there: only a web address, never a javascript: URL.
    if (typeof url !== "string" || !isWebAddress(url))
      throw new Error("The store's finalize answered a redirect without a web address.")
    return { next, url }
  }
  if (next === "declined") return { next, reason: typeof reason === "string" ? reason : "The payment was not made." }
  return { next } as CardFieldsNextStep
}

/**
 * Asks the store to pay with the card the fields confirmed (call it once the SDK reported
 * READY_FOR_PAYMENT). The store pays each session at most once: calling again, after a lost
 * answer or a double click, pays nothing more and answers the same. Other errors throw, as
 * every kit call does.
 */
export async function finalizeCardPayment(
  client: NexiStoreClient,
  { cartId, sessionId }: { cartId: string; sessionId: string },
  options?: RequestOptions,
): Promise<CardFieldsNextStep> {
  try {
    const answer = await client.fetch<unknown>(
      `/store/nexi/payment-sessions/${encodeURIComponent(sessionId)}/finalize`,
      {
        method: "POST",
        body: { cart_id: cartId },
        ...forwarded(options),
      },
    )
    return nextStepOf(answer)
  } catch (error) {
    // The js-sdk's FetchError and the kit's NexiStoreError both carry the status.
    if ((error as { status?: unknown }).status === 409) return { next: "start_again", reason: (error as Error).message }
    throw error
  }
}
