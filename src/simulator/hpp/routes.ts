/**
 * The hosted payment page over HTTP (paths below /hpp): GET shows the page for the order's
 * state; the forms POST to /pay, /challenge and /cancel. The page token in the query string
 * identifies the order; the order id in the path must agree with it.
 */
import { cardOnFileOf } from "../gateway/contracts"
import type { GatewayStore, StoredOrder } from "../gateway/store"
import type { SimRequest, SimResponse } from "../http-types"
import { safeDecode } from "../routing"
import { type HostedOutcome, type HostedPayments, isApproved } from "./flow"
import { type CardForm, challengePage, outcomePage, type PageOrder, paymentFormPage } from "./page"

export function createHostedPageHandler(store: GatewayStore, payments: HostedPayments) {
  return (req: SimRequest): SimResponse => {
    const [orderId, step = "", ...rest] = req.path.split("/").filter(Boolean).map(safeDecode)
    const token = req.query.get("token") ?? ""
    const order = token ? store.findOrderByPageToken(token) : undefined
    if (rest.length > 0 || !order || order.order.orderId !== orderId) {
      return html(
        404,
        outcomePage(undefined, "Not found", "This payment page does not exist or its link is incomplete."),
      )
    }
    const urls = pageUrls(orderId, token)
    const form = formFields(req.body)
    const showCurrentStep = () => currentStep(store, order, urls, payments.closedReason(order)?.reason)
    if (req.method === "GET" && step === "") return showCurrentStep()
    if (req.method === "GET" && step === "challenge") return showCurrentStep()
    if (req.method === "POST" && step === "pay") {
      // The saved-card form has no number or expiry field: absent, not empty, so the saved card pays.
      const submission = payments.submitCard(order, { pan: form.pan, expiryDate: form.expiry, cvv: form.cvv })
      if (submission.kind === "invalid") {
        const error = `Card ${fieldLabel(submission.field)} ${submission.message}.`
        return html(400, paymentFormPage({ order: pageOrder(order), card: cardForm(store, order), ...urls, error }))
      }
      if (submission.kind === "challenge") return redirect(urls.challengeUrl)
      return submission.kind === "done" ? outcomeAnswer(order, submission.outcome) : showCurrentStep()
    }
    if (req.method === "POST" && step === "challenge") {
      const answer = payments.answerChallenge(order, form.outcome === "pass")
      return answer.kind === "done" ? outcomeAnswer(order, answer.outcome) : showCurrentStep()
    }
    if (req.method === "POST" && step === "cancel") {
      const answer = payments.cancel(order)
      return answer.kind === "done" ? outcomeAnswer(order, answer.outcome) : showCurrentStep()
    }
    return html(404, outcomePage(undefined, "Not found", "This payment page does not exist."))
  }
}

interface PageUrls {
  pageUrl: string
  payAction: string
  cancelAction: string
  challengeUrl: string
}

/** Relative to the page, so they work behind any public URL. */
function pageUrls(orderId: string, token: string): PageUrls {
  const base = `/hpp/${encodeURIComponent(orderId)}`
  const query = `?token=${encodeURIComponent(token)}`
  return {
    pageUrl: `${base}${query}`,
    payAction: `${base}/pay${query}`,
    cancelAction: `${base}/cancel${query}`,
    challengeUrl: `${base}/challenge${query}`,
  }
}

/** linkClosed: why a payment link's page takes nothing (cancelled, expired). */
function currentStep(store: GatewayStore, order: StoredOrder, urls: PageUrls, linkClosed?: string): SimResponse {
  const hosted = order.hosted!
  if (linkClosed) {
    return html(410, outcomePage(pageOrder(order), "Link closed", `This payment link cannot be paid: ${linkClosed}.`))
  }
  if (hosted.state === "open")
    return html(200, paymentFormPage({ order: pageOrder(order), card: cardForm(store, order), ...urls }))
  if (hosted.state === "challenge") return html(200, challengePage(pageOrder(order), urls.challengeUrl))
  return html(
    409,
    outcomePage(
      pageOrder(order),
      "Payment closed",
      "This payment is already completed or cancelled; it cannot be paid again.",
      hosted.paymentSession.resultUrl,
    ),
  )
}

/** Success and cancel redirect (303) to the merchant; a failure is shown, with a way back to the merchant. */
function outcomeAnswer(order: StoredOrder, outcome: HostedOutcome): SimResponse {
  const shown = pageOrder(order)
  if (outcome.result === "CANCELED") {
    return outcome.redirectUrl
      ? redirect(outcome.redirectUrl)
      : html(200, outcomePage(shown, "Cancelled", "The payment was cancelled."))
  }
  if (isApproved(outcome)) {
    if (outcome.redirectUrl) return redirect(outcome.redirectUrl)
    return html(
      200,
      shown.verifyOnly
        ? outcomePage(shown, "Verified", "Card verified. Nothing was charged. You can close this window.")
        : outcomePage(shown, "Paid", "Payment approved. You can close this window."),
    )
  }
  return html(200, outcomePage(shown, "Payment not completed", failureMessage(outcome), outcome.redirectUrl))
}

function failureMessage(outcome: HostedOutcome): string {
  if (outcome.declineReason) return `Your payment was declined: ${outcome.declineReason}. No money was taken.`
  if (outcome.result === "DECLINED") return "Your card was declined by the issuer. No money was taken."
  return "The 3-D Secure authentication failed. No money was taken."
}

function cardForm(store: GatewayStore, order: StoredOrder): CardForm {
  const onFile = cardOnFileOf(store, order)
  if (onFile.kind === "saved") return { kind: "saved", card: onFile.contract.card }
  if (onFile.kind === "save") return { kind: "new", saves: onFile.replaces ? "replace" : "create" }
  return { kind: "new" }
}

function pageOrder(order: StoredOrder): PageOrder {
  const session = order.hosted!.paymentSession
  return {
    orderId: order.order.orderId,
    amount: session.amount,
    currency: order.order.currency,
    description: order.order.description,
    verifyOnly: session.actionType === "VERIFY",
  }
}

function formFields(body: unknown): Record<string, string | undefined> {
  return typeof body === "object" && body !== null ? (body as Record<string, string | undefined>) : {}
}

function fieldLabel(field: "pan" | "expiryDate" | "cvv"): string {
  return { pan: "number", expiryDate: "expiry date", cvv: "CVV" }[field]
}

function html(status: number, page: string): SimResponse {
  return { status, html: page }
}

function redirect(location: string): SimResponse {
  return { status: 303, headers: { location }, text: "" }
}
