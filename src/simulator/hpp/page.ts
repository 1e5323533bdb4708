/**
 * The hosted payment page's HTML: self-contained (inline CSS, no scripts, no external
 * assets) so it works offline and in any headless browser. Everything from the merchant
 * is escaped. Its words come from labels.ts, in the order's language.
 */

import type { Wallet } from "../../gateway/schemas"
import { minorMoneyText } from "../../money/amount"
import type { CheckedCard } from "../cards"
import type { PageLabels } from "./labels"

export interface PageOrder {
  orderId: string
  amount: string
  currency: string
  description?: string
  /** actionType VERIFY: the card is checked and nothing is charged, so no amount is shown. */
  verifyOnly: boolean
}

/**
 * What the form asks for: a card, saved on success when the order says so, only the CVV of the
 * saved card, or nothing but the wallet's button.
 */
export type CardForm =
  | { kind: "new"; saves?: "create" | "replace" }
  | { kind: "saved"; card: CheckedCard }
  | { kind: "wallet"; wallet: Wallet }

export interface PaymentFormPage {
  labels: PageLabels
  order: PageOrder
  card: CardForm
  payAction: string
  walletAction: string
  cancelAction: string
  error?: string
}

const WALLET_NAMES: Record<Wallet, { name: string; logo: string }> = {
  GOOGLEPAY: { name: "Google Pay", logo: "googlepay" },
  APPLEPAY: { name: "Apple Pay", logo: "applepay" },
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
button.wallet{background:#000;display:flex;align-items:center;justify-content:center;gap:10px}
button.wallet img{height:24px;background:#fff;border-radius:4px;padding:2px}
a.button{display:block;text-align:center;margin-top:24px;padding:12px;border-radius:8px;background:#1849a9;color:#fff;text-decoration:none;font-weight:600}
`

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

function layout(labels: PageLabels, title: string, order: PageOrder | undefined, content: string): string {
  const summary = order ? summaryOf(labels, order) : ""
  return `<!doctype html>
<html lang="${escapeHtml(labels.htmlLang)}" data-language="${escapeHtml(labels.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><header><div class="brand">Nexi XPay simulator · ${escapeHtml(title)}</div>${summary}</header>
${content}
</main></body></html>`
}

function summaryOf(labels: PageLabels, order: PageOrder): string {
  const amount = order.verifyOnly
    ? `<div class="amount" data-testid="amount">${escapeHtml(labels.noCharge)}</div><p class="notice">${escapeHtml(labels.bankChecksCard)}</p>`
    : `<div class="amount" data-testid="amount">${escapeHtml(minorMoneyText(order.amount, order.currency))}</div>`
  return amount + (order.description ? `<p class="description">${escapeHtml(order.description)}</p>` : "")
}

export function paymentFormPage(page: PaymentFormPage): string {
  const error = page.error ? `<div class="error" role="alert">${escapeHtml(page.error)}</div>` : ""
  const { order, labels } = page
  const submit = order.verifyOnly ? labels.verifyCard : labels.pay(minorMoneyText(order.amount, order.currency))
  const cancel = `<form method="post" action="${escapeHtml(page.cancelAction)}"><button type="submit" class="link" id="cancel">${escapeHtml(labels.cancel)}</button></form>`
  if (page.card.kind === "wallet") {
    const wallet = WALLET_NAMES[page.card.wallet]
    return layout(
      labels,
      labels.payment,
      order,
      `${error}
<form method="post" action="${escapeHtml(page.walletAction)}"><button type="submit" class="wallet" id="wallet-pay" data-wallet="${page.card.wallet}"><img src="/assets/logos/${wallet.logo}.svg" alt="">${escapeHtml(labels.payWithWallet(wallet.name))}</button></form>
${cancel}`,
    )
  }
  return layout(
    labels,
    order.verifyOnly ? labels.verifyCard : labels.payment,
    order,
    `${error}
<form method="post" action="${escapeHtml(page.payAction)}" autocomplete="off">
${page.card.kind === "saved" ? savedCardFields(labels, page.card.card) : newCardFields(labels, page.card.saves)}
<button type="submit" id="pay">${escapeHtml(submit)}</button>
</form>
${cancel}`,
  )
}

function newCardFields(labels: PageLabels, saves: "create" | "replace" | undefined): string {
  const notice = saves === "replace" ? labels.saveReplacing : labels.saveNew
  return `<label for="holder">${escapeHtml(labels.cardholderName)}</label><input id="holder" name="holder" autocomplete="cc-name">
<label for="pan">${escapeHtml(labels.cardNumber)}</label><input id="pan" name="pan" inputmode="numeric" required autocomplete="cc-number">
<div class="row"><div><label for="expiry">${escapeHtml(labels.expiry)}</label><input id="expiry" name="expiry" placeholder="${escapeHtml(labels.expiryPlaceholder)}" required autocomplete="cc-exp"></div>
<div><label for="cvv">${escapeHtml(labels.cvv)}</label><input id="cvv" name="cvv" inputmode="numeric" required autocomplete="cc-csc"></div></div>${
    saves ? `\n<p class="notice" data-testid="save-notice">${escapeHtml(notice)}</p>` : ""
  }`
}

/** A one-click payment: the saved card is shown masked and only its CVV is asked. */
function savedCardFields(labels: PageLabels, card: CheckedCard): string {
  const digits = card.circuit === "AMEX" ? 4 : 3
  return `<p class="notice">${escapeHtml(labels.payWithSavedCard)}</p>
<div class="saved-card" data-testid="saved-card">${escapeHtml(savedCardLabel(card))}</div>
<label for="cvv">${escapeHtml(labels.cvvDigits(digits))}</label><input id="cvv" name="cvv" inputmode="numeric" maxlength="${digits}" required autocomplete="cc-csc">`
}

/** "VISA •••• 4549": the circuit and the last four digits, as wallets show a saved card. */
function savedCardLabel(card: CheckedCard): string {
  return `${card.circuit} •••• ${card.maskedPan.slice(-4)}`
}

export function challengePage(labels: PageLabels, order: PageOrder, answerAction: string): string {
  return layout(
    labels,
    labels.challengeTitle,
    order,
    `<p class="notice">${escapeHtml(labels.challengeNotice)}</p>
<form method="post" action="${escapeHtml(answerAction)}"><input type="hidden" name="outcome" value="pass"><button type="submit" id="approve">${escapeHtml(labels.approve)}</button></form>
<form method="post" action="${escapeHtml(answerAction)}"><input type="hidden" name="outcome" value="fail"><button type="submit" class="secondary" id="fail">${escapeHtml(labels.failAuthentication)}</button></form>`,
  )
}

/** A final page: after a decline or failed authentication, after a payment with no resultUrl, or for a closed order. */
export function outcomePage(
  labels: PageLabels,
  order: PageOrder | undefined,
  title: string,
  message: string,
  backUrl?: string,
): string {
  const back = backUrl
    ? `<a class="button" id="back" href="${escapeHtml(backUrl)}">${escapeHtml(labels.backToShop)}</a>`
    : ""
  return layout(labels, title, order, `<p class="notice" data-testid="outcome">${escapeHtml(message)}</p>${back}`)
}
