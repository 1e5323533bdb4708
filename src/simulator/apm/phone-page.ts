/**
 * The simulated consumer app: one small mobile-looking page per transaction. Everything
 * shown comes from the merchant's request, so all of it is HTML-escaped.
 */
import { minorMoneyText } from "../../money/amount"
import type { TransactionRecord } from "./transaction-record"

const STYLE = `
  body { margin: 0; font-family: system-ui, sans-serif; background: #e9ecf2; }
  main { max-width: 360px; margin: 24px auto; background: #fff; border-radius: 28px;
         padding: 28px 22px; box-shadow: 0 8px 30px rgba(0, 0, 0, .15); text-align: center; }
  .merchant { color: #555; margin: 0; }
  .amount { font-size: 2.2rem; font-weight: 700; margin: 12px 0; }
  .state { display: inline-block; padding: 4px 12px; border-radius: 999px; background: #eef; }
  .notice { margin: 16px 0 0; font-weight: 600; }
  form { margin-top: 20px; }
  button { width: 100%; padding: 16px; margin-top: 10px; border: 0; border-radius: 14px;
           font-size: 1.1rem; color: #fff; cursor: pointer; }
  .approve { background: #1a7f37; }
  .reject { background: #b42318; }
`

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${content}</main></body>
</html>
`
}

/** `notice` reports the outcome of the button just pressed, or why it did nothing. */
export function renderPhonePage(record: TransactionRecord, notice?: string): string {
  const { transactionId, amount, merchant, consumer, method, state } = record
  const formatted = minorMoneyText(amount.totalAmount, amount.currencyCode)
  // Relative actions: the page is served at .../phone/{id}, whatever host the browser used.
  const buttons =
    state === "PENDING"
      ? `<form method="post" action="${transactionId}/approve"><button class="approve" type="submit">Approve</button></form>
<form method="post" action="${transactionId}/reject"><button class="reject" type="submit">Reject</button></form>`
      : ""
  return page(
    `Pay ${merchant.merchantId}`,
    `<p class="merchant">${escapeHtml(method)} payment request from</p>
<h1>${escapeHtml(merchant.merchantId)}</h1>
<p class="amount" data-testid="amount">${escapeHtml(formatted)}</p>
<p>to be paid by ${escapeHtml(consumer.name)}</p>
<p class="state" data-testid="state">${escapeHtml(state)}</p>
${notice ? `<p class="notice" data-testid="notice">${escapeHtml(notice)}</p>` : ""}
${buttons}`,
  )
}

export function renderMissingPage(idText: string): string {
  return page("Unknown payment", `<h1>Unknown payment</h1><p>There is no transaction ${escapeHtml(idText)}.</p>`)
}
