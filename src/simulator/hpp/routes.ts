/**
 * The hosted payment page over HTTP (paths below /hpp): GET shows the page for the order's
 * state; the forms POST to /pay (a card), /wallet (a wallet's button), /challenge and /cancel.
 * The page token in the query string identifies the order; the order id in the path must agree
 * with it. A Build session's card is typed in its fields, so its page is only the 3-D Secure
 * challenge; every outcome of a Build session goes back to the merchant's page.
 */
import { cardOnFileOf } from "../gateway/contracts"
import type { GatewayStore, StoredOrder } from "../gateway/store"
import type { SimRequest, SimResponse } from "../http-types"
import { safeDecode } from "../routing"
import { type HostedOutcome, type HostedPayments, isApproved, walletOf } from "./flow"
import { labelsFor, type PageLabels } from "./labels"
import { type CardForm, challengePage, outcomePage, type PageOrder, paymentFormPage } from "./page"

export function createHostedPageHandler(store: GatewayStore, payments: HostedPayments) {
  return (req: SimRequest): SimResponse => {
    const [orderId, step = "", ...rest] = req.path.split("/").filter(Boolean).map(safeDecode)
    const token = req.query.get("token") ?? ""
    const order = token ? store.findOrderByPageToken(token) : undefined
    // A Build session's card is typed in its fields: only its challenge, once it has one, is shown here.
    const cardFieldsElsewhere =
      order?.hosted?.build && !walletOf(order) && (step !== "challenge" || order.hosted.state === "open")
    if (rest.length > 0 || !order || order.order.orderId !== orderId || cardFieldsElsewhere) {
      const english = labelsFor(undefined)
      return html(404, outcomePage(english, undefined, english.notFound, english.noSuchPageOrLink))
    }
    const labels = labelsFor(order.hosted?.paymentSession.language)
    const urls = pageUrls(orderId, token)
    const form = formFields(req.body)
    const showCurrentStep = () => currentStep(labels, store, order, urls, payments.closedReason(order)?.reason)
    if (req.method === "GET" && step === "") return showCurrentStep()
    if (req.method === "GET" && step === "challenge") return showCurrentStep()
    if (req.method === "POST" && step === "pay") {
      // The saved-card form has no number or expiry field: absent, not empty, so the saved card pays.
      const submission = payments.submitCard(order, { pan: form.pan, expiryDate: form.expiry, cvv: form.cvv })
      if (submission.kind === "invalid") {
        const error = labels.invalidCard(submission.field, submission.message)
        const refused = { labels, order: pageOrder(order), card: cardForm(store, order), ...urls, error }
        return html(400, paymentFormPage(refused))
      }
      if (submission.kind === "challenge") return redirect(urls.challengeUrl)
      return submission.kind === "done" ? outcomeAnswer(labels, order, submission.outcome) : showCurrentStep()
    }
    if (req.method === "POST" && step === "wallet") {
      const answer = payments.payWithWallet(order)
      return answer.kind === "done" ? outcomeAnswer(labels, order, answer.outcome) : showCurrentStep()
    }
    if (req.method === "POST" && step === "challenge") {
      const answer = payments.answerChallenge(order, form.outcome === "pass")
      return answer.kind === "done" ? outcomeAnswer(labels, order, answer.outcome) : showCurrentStep()
    }
    if (req.method === "POST" && step === "cancel") {
      const answer = payments.cancel(order)
      return answer.kind === "done" ? outcomeAnswer(labels, order, answer.outcome) : showCurrentStep()
    }
    return html(404, outcomePage(labels, undefined, labels.notFound, labels.noSuchPage))
  }
}

interface PageUrls {
  pageUrl: string
  payAction: string
  walletAction: string
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
    walletAction: `${base}/wallet${query}`,
    cancelAction: `${base}/cancel${query}`,
    challengeUrl: `${base}/challenge${query}`,
  }
}

/** linkClosed: why a payment link's page takes nothing (cancelled, expired). */
function currentStep(
  labels: PageLabels,
  store: GatewayStore,
  order: StoredOrder,
  urls: PageUrls,
  linkClosed?: string,
): SimResponse {
  const hosted = order.hosted!
  if (linkClosed) {
    return html(410, outcomePage(labels, pageOrder(order), labels.linkClosedTitle, labels.linkClosedNotice(linkClosed)))
  }
  if (hosted.state === "open")
    return html(200, paymentFormPage({ labels, order: pageOrder(order), card: cardForm(store, order), ...urls }))
  if (hosted.state === "challenge") return html(200, challengePage(labels, pageOrder(order), urls.challengeUrl))
  const closed = outcomePage(
    labels,
    pageOrder(order),
    labels.closedTitle,
    labels.closedNotice,
    hosted.paymentSession.resultUrl,
  )
  return html(409, closed)
}

/**
 * Success and cancel redirect (303) to the merchant; a failure is shown, with a way back to the
 * merchant. A Build session's page shows no outcome: the merchant's page does.
 */
function outcomeAnswer(labels: PageLabels, order: StoredOrder, outcome: HostedOutcome): SimResponse {
  const shown = pageOrder(order)
  if (order.hosted!.build && outcome.redirectUrl) return redirect(outcome.redirectUrl)
  if (outcome.result === "CANCELED") {
    return outcome.redirectUrl
      ? redirect(outcome.redirectUrl)
      : html(200, outcomePage(labels, shown, labels.cancelledTitle, labels.cancelledNotice))
  }
  if (isApproved(outcome)) {
    if (outcome.redirectUrl) return redirect(outcome.redirectUrl)
    return html(
      200,
      shown.verifyOnly
        ? outcomePage(labels, shown, labels.verifiedTitle, labels.verifiedNotice)
        : outcomePage(labels, shown, labels.paidTitle, labels.paidNotice),
    )
  }
  const failure = failureMessage(labels, outcome)
  return html(200, outcomePage(labels, shown, labels.notCompletedTitle, failure, outcome.redirectUrl))
}

function failureMessage(labels: PageLabels, outcome: HostedOutcome): string {
  if (outcome.declineReason) return labels.declinedWithReason(outcome.declineReason)
  if (outcome.result === "DECLINED") return labels.declined
  return labels.authenticationFailed
}

function cardForm(store: GatewayStore, order: StoredOrder): CardForm {
  const wallet = walletOf(order)
  if (wallet) return { kind: "wallet", wallet }
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

function html(status: number, page: string): SimResponse {
  return { status, html: page }
}

function redirect(location: string): SimResponse {
  return { status: 303, headers: { location }, text: "" }
}
