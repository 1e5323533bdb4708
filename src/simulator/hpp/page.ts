/**
 * The hosted payment page's HTML: self-contained (inline CSS, no scripts, no external
 * assets) so it works offline and in any headless browser. Everything from the merchant
 * is escaped.
 */
import { minorToMajorString } from "../../money/amount"
import type { CheckedCard } from "../cards"

export interface PageOrder {
  orderId: string
  amount: string
  currency: string
  description?: string
  /** actionType VERIFY: the card is checked and nothing is charged, so no amount is shown. */
  verifyOnly: boolean
}

/** What the form asks for: a card, saved on success when the order says so, or only the CVV of the saved card. */
export type CardForm = { kind: "new"; saves?: "create" | "replace" } | { kind: "saved"; card: CheckedCard }

export interface PaymentFormPage {
  order: PageOrder
  card: CardForm
  payAction: string
  cancelAction: string
  error?: string
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f2f4f7;color:#1d2939}
main{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(16,24,40,.08);padding:32px}
header{border-bottom:1px solid #eaecf0;margin-bottom:24px;padding-bottom:16px}
.brand{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:#667085}
.amount{font-size:32px;font-weight:700;margin:8px 0 4px}
.description{color:#475467;margin:0}
label{display:block;font-size:14px;font-weight:600;margin:16px 0 6px}
input{width:100%;font-size:16px;padding:10px 12px;border:1px solid #d0d5dd;border-radius:8px}
.row{display:flex;gap:12px}.row>div{flex:1}
button{width:100%;margin-top:24px;padding:12px;font-size:16px;font-weight:600;border:0;border-radius:8px;background:#1849a9;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#b42318;border:1px solid #fda29b}
.link{background:none;color:#475467;font-weight:400;text-decoration:underline;margin-top:12px;padding:4px}
.error{background:#fef3f2;color:#b42318;border:1px solid #fecdca;border-radius:8px;padding:10px 12px;margin-bottom:8px}
.notice{color:#475467}
.saved-card{font-size:18px;font-weight:600;letter-spacing:.04em;padding:12px;border:1px solid #d0d5dd;border-radius:8px}
a.button{display:block;text-align:center;margin-top:24px;padding:12px;border-radius:8px;background:#1849a9;color:#fff;text-decoration:none;font-weight:600}
`

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

function layout(title: string, order: PageOrder | undefined, content: string): string {
  const summary = order ? summaryOf(order) : ""
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><header><div class="brand">Nexi XPay simulator · ${escapeHtml(title)}</div>${summary}</header>
${content}
</main></body></html>`
}

function summaryOf(order: PageOrder): string {
  const amount = order.verifyOnly
    ? `<div class="amount" data-testid="amount">No charge</div><p class="notice">Your bank checks the card; nothing will be charged.</p>`
    : `<div class="amount" data-testid="amount">${escapeHtml(formatAmount(order.amount, order.currency))}</div>`
  return amount + (order.description ? `<p class="description">${escapeHtml(order.description)}</p>` : "")
}

/** "1999" EUR reads "19.99 EUR"; "5000" JPY reads "5000 JPY". */
export function formatAmount(minor: string, currency: string): string {
  return `${minorToMajorString(minor, currency)} ${currency}`
}

export function paymentFormPage(page: PaymentFormPage): string {
  const error = page.error ? `<div class="error" role="alert">${escapeHtml(page.error)}</div>` : ""
  const { order } = page
  const submit = order.verifyOnly ? "Verify card" : `Pay ${formatAmount(order.amount, order.currency)}`
  return layout(
    order.verifyOnly ? "Verify card" : "Payment",
    order,
    `${error}
<form method="post" action="${escapeHtml(page.payAction)}" autocomplete="off">
${page.card.kind === "saved" ? savedCardFields(page.card.card) : newCardFields(page.card.saves)}
<button type="submit" id="pay">${escapeHtml(submit)}</button>
</form>
<form method="post" action="${escapeHtml(page.cancelAction)}"><button type="submit" class="link" id="cancel">Cancel and return to the shop</button></form>`,
  )
}

const SAVE_NOTICES = {
  create: "This card will be saved for future purchases.",
  replace: "This card will be saved for future purchases, replacing your saved card.",
}

function newCardFields(saves: "create" | "replace" | undefined): string {
  return `<label for="holder">Cardholder name</label><input id="holder" name="holder" autocomplete="cc-name">
<label for="pan">Card number</label><input id="pan" name="pan" inputmode="numeric" required autocomplete="cc-number">
<div class="row"><div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" placeholder="MM/YY" required autocomplete="cc-exp"></div>
<div><label for="cvv">CVV</label><input id="cvv" name="cvv" inputmode="numeric" required autocomplete="cc-csc"></div></div>${
    saves ? `\n<p class="notice" data-testid="save-notice">${SAVE_NOTICES[saves]}</p>` : ""
  }`
}

/** A one-click payment: the saved card is shown masked and only its CVV is asked. */
function savedCardFields(card: CheckedCard): string {
  const digits = card.circuit === "AMEX" ? 4 : 3
  return `<p class="notice">Pay with your saved card</p>
<div class="saved-card" data-testid="saved-card">${escapeHtml(savedCardLabel(card))}</div>
<label for="cvv">CVV (${digits} digits)</label><input id="cvv" name="cvv" inputmode="numeric" maxlength="${digits}" required autocomplete="cc-csc">`
}

/** "VISA •••• 4549": the circuit and the last four digits, as wallets show a saved card. */
function savedCardLabel(card: CheckedCard): string {
  return `${card.circuit} •••• ${card.maskedPan.slice(-4)}`
}

export function challengePage(order: PageOrder, answerAction: string): string {
  return layout(
    "3-D Secure",
    order,
    `<p class="notice">Your bank asks you to confirm this payment.</p>
<form method="post" action="${escapeHtml(answerAction)}"><input type="hidden" name="outcome" value="pass"><button type="submit" id="approve">Approve</button></form>
<form method="post" action="${escapeHtml(answerAction)}"><input type="hidden" name="outcome" value="fail"><button type="submit" class="secondary" id="fail">Fail authentication</button></form>`,
  )
}

/** A final page: after a decline or failed authentication, after a payment with no resultUrl, or for a closed order. */
export function outcomePage(order: PageOrder | undefined, title: string, message: string, backUrl?: string): string {
  const back = backUrl ? `<a class="button" id="back" href="${escapeHtml(backUrl)}">Return to the shop</a>` : ""
  return layout(title, order, `<p class="notice" data-testid="outcome">${escapeHtml(message)}</p>${back}`)
}
