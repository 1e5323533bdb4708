/**
 * The catalogue of malformed inputs (issue 8): every entry is something a store owner, a
 * storefront, a member of staff or an attacker may send, the answer it must get, and the
 * words that make the error clear. malformed-inputs.spec.ts runs every entry against a real
 * store and also checks that nothing changed. To add a case, add an entry; docs/testing.md
 * explains the fields.
 *
 * Placeholders in strings are filled in by the suite: {{orderId}} (the gateway order of an
 * open card checkout) and {{otherToken}} (the genuine security token of a different order).
 */

import { CARDS } from "../support/checkout-kit"

/** Provider options (medusa-config.ts), checked when the store boots. */
export interface OptionsCase {
  name: string
  /** Dotted path into valid options, and the value to put there (undefined removes it). */
  set: { path: string; value: unknown }
  /** The boot error must match. */
  error: RegExp
}

/** POST /store/payment-collections/:id/payment-sessions. */
export interface SessionCase {
  name: string
  body: Record<string, unknown>
  status: number
  message: RegExp
  /**
   * The refusal comes from the payment service itself, inside Medusa's workflow, which deletes
   * the collection's other sessions while it creates the new one and recreates them when that
   * fails: the cart's card session comes back with a new id and a new, unpaid hosted page. No
   * order, no money moved, the same kinds of sessions in the same states.
   */
  supersedesOtherSessions?: true
}

/** POST /hooks/payment/:provider, as the gateway (or anyone) sends it. */
export interface NotificationCase {
  name: string
  /** Medusa's webhook route name; the card provider's by default. */
  provider?: string
  /** Sent as JSON, unless `raw` is given. */
  body?: unknown
  raw?: string
  contentType?: string
  /** Medusa's answer: 200 for anything its parser accepts, the parser's refusal otherwise. */
  status: number
  /** For an accepted body: the warning the plugin must log when it ignores it. */
  warning?: RegExp
  /** For a refused body: what Medusa's answer says. */
  message?: RegExp
}

/** A store or admin route called with a bad query, path or body. */
export interface RouteCase {
  name: string
  method: "GET" | "POST"
  path: string
  body?: unknown
  /** Sent as a logged-in member of staff (every /admin route needs one). */
  admin?: true
  status: number
  message: RegExp
}

const APM = "pp_nexi-apm-psp-b_nexi"
const CARD = CARDS.approved
const longText = (length: number) => "x".repeat(length)

export const OPTIONS_CASES: OptionsCase[] = [
  { name: "no API key", set: { path: "apiKey", value: undefined }, error: /apiKey: / },
  { name: "an empty API key", set: { path: "apiKey", value: "" }, error: /apiKey: is required/ },
  { name: "an API key that is a number", set: { path: "apiKey", value: 123456 }, error: /apiKey: .*string/ },
  { name: "an unknown environment name", set: { path: "environment", value: "staging" }, error: /environment: / },
  { name: "an unknown capture type", set: { path: "captureType", value: "LATER" }, error: /captureType: Invalid option: expected one of/ },
  { name: "a language that is not ISO 639-2", set: { path: "language", value: "english" }, error: /language: must be an ISO 639-2 code/ },
  { name: "a result URL that is not a URL", set: { path: "resultUrl", value: "checkout/result" }, error: /resultUrl: must be an absolute http\(s\) URL/ },
  { name: "no cancel URL", set: { path: "cancelUrl", value: undefined }, error: /cancelUrl: / },
  { name: "a notification URL that is an object", set: { path: "notificationUrl", value: { url: "https://shop.example" } }, error: /notificationUrl: / },
  { name: "an order id prefix too long", set: { path: "orderIdPrefix", value: "SHOP1" }, error: /orderIdPrefix: must be at most 4 letters or digits/ },
  { name: "an order id prefix with a dash", set: { path: "orderIdPrefix", value: "S-1" }, error: /orderIdPrefix: must be at most 4 letters or digits/ },
  { name: "a negative timeout", set: { path: "timeoutMs", value: -5 }, error: /timeoutMs: / },
  { name: "a timeout given as text", set: { path: "timeoutMs", value: "15000" }, error: /timeoutMs: .*number/ },
  { name: "too many retries", set: { path: "retries", value: 9 }, error: /retries: / },
  { name: "a fractional poll delay", set: { path: "pollPendingAfterSeconds", value: 1.5 }, error: /pollPendingAfterSeconds: / },
  { name: "a description over 255 characters", set: { path: "description", value: longText(256) }, error: /description: / },
  { name: "mobile payments without a consumer secret", set: { path: "apm.consumerSecret", value: undefined }, error: /apm\.consumerSecret: / },
  { name: "mobile payments with an empty merchant id", set: { path: "apm.merchantId", value: "" }, error: /apm\.merchantId: is required/ },
  { name: "mobile payments without a service URL", set: { path: "apm.environment", value: "sandbox" }, error: /apm\.environment: must be an absolute http\(s\) URL/ },
  { name: "no mobile payment scheme", set: { path: "apm.methods", value: [] }, error: /apm\.methods: must list at least one scheme/ },
  { name: "an unknown mobile payment scheme", set: { path: "apm.methods", value: ["PSP_B", "PSP_Z"] }, error: /apm\.methods\.1: / },
  { name: "a scheme logo that is not a URL", set: { path: "apm.logoUrls.PSP_B", value: "logo.svg" }, error: /apm\.logoUrls\.PSP_B: must be an absolute http\(s\) URL/ },
  { name: "a blank scheme name", set: { path: "apm.names.PSP_C", value: "   " }, error: /apm\.names\.PSP_C: must not be empty/ },
]

export const SESSION_CASES: SessionCase[] = [
  { name: "a mobile payment without the shopper's consumer id", body: { provider_id: APM, data: {} }, status: 400, message: /data\.consumer_id/ },
  { name: "a mobile payment with a blank consumer id", body: { provider_id: APM, data: { consumer_id: "   " } }, status: 400, message: /data\.consumer_id/ },
  { name: "a mobile payment with a consumer id that is an object", body: { provider_id: APM, data: { consumer_id: { phone: "+4712345678" } } }, status: 400, message: /data\.consumer_id/ },
  { name: "a mobile payment with a consumer id that is a list", body: { provider_id: APM, data: { consumer_id: ["+4712345678"] } }, status: 400, message: /data\.consumer_id/ },
  {
    name: "a mobile scheme that refuses the cart's currency",
    body: { provider_id: "pp_nexi-apm-psp-c_nexi", data: { consumer_id: "+4712345678" } },
    status: 400,
    message: /Currency EUR is not accepted by PSP_C/,
    supersedesOtherSessions: true,
  },
  { name: "session data that is not an object", body: { provider_id: "pp_nexi_nexi", data: "pay now" }, status: 400, message: /data/ },
  { name: "a provider id that is a number", body: { provider_id: 42 }, status: 400, message: /provider_id/ },
  {
    name: "a Nexi provider that does not exist",
    body: { provider_id: "pp_nexi-apm-psp-z_nexi", data: { consumer_id: "+4712345678" } },
    status: 400,
    message: /Payment provider pp_nexi-apm-psp-z_nexi is not enabled in the cart's region/,
  },
]

/** A body with every member a gateway notification has; each case spoils or forges one part. */
const notification = (operation: Record<string, unknown>, members: Record<string, unknown> = {}) => ({
  eventId: "0d9f6a52-3f1e-4b7a-9c55-1e2f3a4b5c6d",
  eventTime: "2026-01-15T10:00:00.000Z",
  securityToken: "guessed-token",
  operation: { orderId: "{{orderId}}", operationType: "AUTHORIZATION", operationResult: "AUTHORIZED", operationAmount: "1999", ...operation },
  ...members,
})
/** The warning for a body that is not a notification, naming the first field that is wrong. */
const notANotification = (field: string) =>
  new RegExp(`ignored a notification that is not a gateway notification \\(${field.replace(/[.()]/g, "\\$&")}: `)
const TOKEN_MISMATCH = /ignored a notification for order \w+ whose security token does not match/

export const NOTIFICATION_CASES: NotificationCase[] = [
  { name: "an empty object", body: {}, status: 200, warning: notANotification("eventId") },
  { name: "an object that is not a notification", body: { hello: "world" }, status: 200, warning: notANotification("eventId") },
  { name: "a list", body: [1, 2, 3], status: 200, warning: notANotification("(body)") },
  { name: "an operation that is text", body: notification({}, { operation: "AUTHORIZATION AUTHORIZED" }), status: 200, warning: notANotification("operation") },
  { name: "an order id that is a number", body: notification({ orderId: 1234567 }), status: 200, warning: notANotification("operation.orderId") },
  { name: "an amount that is a number", body: notification({ operationAmount: 19.99 }), status: 200, warning: notANotification("operation.operationAmount") },
  { name: "an unknown operation result", body: notification({ operationResult: "PAID" }), status: 200, warning: notANotification("operation.operationResult") },
  { name: "an event time that is an object", body: notification({}, { eventTime: { date: "today" } }), status: 200, warning: notANotification("eventTime") },
  { name: "a security token that is a number", body: notification({}, { securityToken: 12345 }), status: 200, warning: notANotification("securityToken") },
  { name: "a real order without a security token", body: notification({}, { securityToken: undefined }), status: 200, warning: notANotification("securityToken") },
  { name: "deeply nested junk", body: { operation: { orderId: { a: { b: { c: { d: ["{{orderId}}"] } } } } } }, status: 200, warning: notANotification("eventId") },
  {
    name: "a notification for an order the gateway does not know",
    body: notification({ orderId: "NOSUCHORDER1", operationType: "CAPTURE", operationResult: "EXECUTED" }),
    status: 200,
    warning: /ignored a notification for unknown order NOSUCHORDER1/,
  },
  { name: "a real order with a made-up security token", body: notification({}), status: 200, warning: TOKEN_MISMATCH },
  {
    name: "a real order with the genuine token of another order",
    body: notification({ operationType: "CAPTURE", operationResult: "EXECUTED" }, { securityToken: "{{otherToken}}" }),
    status: 200,
    warning: TOKEN_MISMATCH,
  },
  // The raw body is read whatever the content type; the made-up token is what gets it refused.
  { name: "a forged notification sent as plain text", raw: JSON.stringify(notification({})), contentType: "text/plain", status: 200, warning: TOKEN_MISMATCH },
  {
    name: "a form-encoded body",
    raw: "orderId={{orderId}}&operationResult=AUTHORIZED",
    contentType: "application/x-www-form-urlencoded",
    status: 200,
    warning: /ignored a notification that is not a gateway notification \(the body is not JSON\)/,
  },
  { name: "invalid JSON", raw: '{"operation": {"orderId": ', contentType: "application/json", status: 400, message: /JSON|Unexpected|parse/i },
  { name: "a body of several megabytes", raw: JSON.stringify(notification({}, { padding: longText(3 * 1024 * 1024) })), contentType: "application/json", status: 413, message: /too large/i },
  { name: "a notification to a mobile payment provider, which has none", provider: "nexi-apm-psp-b_nexi", body: notification({}), status: 200, warning: /PSP_B has no notifications/ },
]

export const ROUTE_CASES: RouteCase[] = [
  { name: "payment methods without a region", method: "GET", path: "/store/nexi/payment-methods", status: 400, message: /region_id: is required/ },
  { name: "payment methods with an empty region", method: "GET", path: "/store/nexi/payment-methods?region_id=", status: 400, message: /region_id: is required/ },
  { name: "payment methods of a region that does not exist", method: "GET", path: "/store/nexi/payment-methods?region_id=reg_nosuchregion", status: 404, message: /region_id: no region reg_nosuchregion/ },
  { name: "the status of something that is not a payment session", method: "GET", path: "/store/nexi/payment-sessions/cart_123", status: 400, message: /id: must be a payment session id/ },
  { name: "the status of a payment session that does not exist", method: "GET", path: "/store/nexi/payment-sessions/payses_nosuchsession", status: 404, message: /id: no Nexi payment session payses_nosuchsession/ },
  // Admin routes (docs/admin-api.md). A refused MOTO must not reach the gateway, and no answer repeats the card.
  { name: "a MOTO card number with spaces", method: "POST", path: "/admin/nexi/moto", admin: true, body: { order_id: "order_01ABC", card: { ...CARD, pan: "4999 3402 6197 7289" } }, status: 400, message: /^card\.pan: must be 13 to 19 digits/ },
  {
    name: "a MOTO card with a wrong check digit and a past expiry",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { order_id: "order_01ABC", card: { ...CARD, pan: "4999340261977288", expiryDate: "0120" } },
    status: 400,
    message: /card\.pan: is not a valid card number.*card\.expiryDate: the card has expired/,
  },
  { name: "a MOTO CVV of letters", method: "POST", path: "/admin/nexi/moto", admin: true, body: { order_id: "order_01ABC", card: { ...CARD, cvv: "abc" } }, status: 400, message: /card\.cvv: / },
  { name: "a MOTO amount chosen by the caller", method: "POST", path: "/admin/nexi/moto", admin: true, body: { order_id: "order_01ABC", card: CARD, amount: 1 }, status: 400, message: /^amount: is not accepted here$/ },
  { name: "a MOTO without a card", method: "POST", path: "/admin/nexi/moto", admin: true, body: { order_id: "order_01ABC" }, status: 400, message: /^card: is required$/ },
  { name: "a MOTO for an order that does not exist", method: "POST", path: "/admin/nexi/moto", admin: true, body: { draft_order_id: "order_01NOSUCHORDER", card: CARD }, status: 404, message: /^draft_order_id: no order order_01NOSUCHORDER$/ },
  { name: "a MOTO body that is a list", method: "POST", path: "/admin/nexi/moto", admin: true, body: [CARD], status: 400, message: /^\(request\): .*expected object/ },
  { name: "a card verification with a bad email", method: "POST", path: "/admin/nexi/card-verifications", admin: true, body: { card: CARD, customer_email: "not-an-email" }, status: 400, message: /^customer_email: must be an email address$/ },
  { name: "a capture cancel without its operation or reason", method: "POST", path: "/admin/nexi/payments/pay_01ABC/cancel-capture", admin: true, body: {}, status: 400, message: /operation_id: is required; reason: is required/ },
  { name: "a sync of something that is not a payment", method: "POST", path: "/admin/nexi/payments/order_1/sync", admin: true, body: {}, status: 400, message: /^id: must be a payment id \(pay_\.\.\.\)$/ },
  { name: "an operations list with a word for a number", method: "GET", path: "/admin/nexi/operations?maxRecords=ten", admin: true, status: 400, message: /^maxRecords: must be a whole number above 0$/ },
  { name: "a gateway order id with a dash", method: "GET", path: "/admin/nexi/orders/NOT-AN-ORDER-ID", admin: true, status: 400, message: /^orderId: must be 1 to 18 letters and digits$/ },
]
