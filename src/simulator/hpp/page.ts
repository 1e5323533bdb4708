/**
 * The hosted payment page's HTML: self-contained (inline CSS, no scripts, no external
 * assets) so it works offline and in any headless browser. Everything from the merchant
 * is escaped.
 */
import { minorToMajorString } from "../../money/amount"

export interface PageOrder {
  orderId: string
  amount: string
  currency: string
  description?: string
}

export interface PaymentFormPage {
  order: PageOrder
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
a.button{display:block;text-align:center;margin-top:24px;padding:12px;border-radius:8px;background:#1849a9;color:#fff;text-decoration:none;font-weight:600}
`

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

function layout(title: string, order: PageOrder | undefined, content: string): string {
  const summary = order
    ? `<div class="amount" data-testid="amount">${escapeHtml(formatAmount(order.amount, order.currency))}</div>` +
      (order.description ? `<p class="description">${escapeHtml(order.description)}</p>` : "")
    : ""
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><header><div class="brand">Nexi XPay simulator · ${escapeHtml(title)}</div>${summary}</header>
${content}
</main></body></html>`
}

/** "1999" EUR reads "19.99 EUR"; "5000" JPY reads "5000 JPY". */
export function formatAmount(minor: string, currency: string): string {
  return `${minorToMajorString(minor, currency)} ${currency}`
}

export function paymentFormPage(page: PaymentFormPage): string {
  const error = page.error ? `<div class="error" role="alert">${escapeHtml(page.error)}</div>` : ""
  return layout(
    "Payment",
    page.order,
    `${error}
<form method="post" action="${escapeHtml(page.payAction)}" autocomplete="off">
<label for="holder">Cardholder name</label><input id="holder" name="holder" autocomplete="cc-name">
<label for="pan">Card number</label><input id="pan" name="pan" inputmode="numeric" required autocomplete="cc-number">
<div class="row"><div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" placeholder="MM/YY" required autocomplete="cc-exp"></div>
<div><label for="cvv">CVV</label><input id="cvv" name="cvv" inputmode="numeric" required autocomplete="cc-csc"></div></div>
<button type="submit" id="pay">Pay ${escapeHtml(formatAmount(page.order.amount, page.order.currency))}</button>
</form>
<form method="post" action="${escapeHtml(page.cancelAction)}"><button type="submit" class="link" id="cancel">Cancel and return to the shop</button></form>`,
  )
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
