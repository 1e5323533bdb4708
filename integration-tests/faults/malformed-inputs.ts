/**
 * The catalogue of malformed inputs (issue 8): every entry is something a store owner, a
 * storefront, a member of staff or an attacker may send, the answer it must get, and the
 * words that make the error clear. malformed-inputs.spec.ts runs every entry against a real
 * store and also checks that nothing changed. To add a case, add an entry; docs/testing.md
 * explains the fields.
 *
 * Placeholders in strings are filled in by the suite: {{orderId}} (the gateway order of an
 * open card checkout), {{token}} (that order's genuine security token), {{otherToken}} (the
 * genuine security token of a different order), {{sessionId}} and {{cartId}} (the open
 * checkout's payment session and cart) and {{otherCartId}} (another shopper's cart).
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

/**
 * A payment session started through Medusa's payment module with an amount or currency the
 * store API cannot produce from the test store (its one region is EUR and its product costs
 * 19.99): the provider must refuse it before any gateway request, and the module removes the
 * session it had created.
 */
export interface AmountCase {
  name: string
  provider_id: string
  amount: number | string
  currency_code: string
  data?: Record<string, unknown>
  /** The provider's refusal must match. */
  message: RegExp
}

/**
 * POST /store/payment-collections/:id/payment-sessions with `data` keys a storefront may not
 * set: the session is created as usual, and none of the forged values is on it.
 */
export interface DroppedDataCase {
  name: string
  provider_id: string
  /** The forged members of `data`; each must be gone from the session, or hold the plugin's own value. */
  forged: Record<string, unknown>
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
/** `levels` objects, each holding the next under `n`, around `innermost`. */
const nested = (levels: number, innermost: unknown = {}): unknown =>
  levels === 0 ? innermost : { n: nested(levels - 1, innermost) }
/** `levels` lists, each holding the next. */
const nestedList = (levels: number): unknown => (levels === 0 ? [] : [nestedList(levels - 1)])
/** The words an option error uses for a URL of another scheme. */
const notHttp = (scheme: string) => new RegExp(`must be an http\\(s\\) URL, not ${scheme}:`)
const PLAIN_HTTP = /must be an https URL \(plain http is accepted only for localhost, 127\.0\.0\.0\/8 and ::1\)/
const NO_SPACES = /must not contain spaces or control characters/
const ENVIRONMENT_HINT = /environment: must be "sandbox", "production" or an http\(s\) base URL/

export const OPTIONS_CASES: OptionsCase[] = [
  { name: "no API key", set: { path: "apiKey", value: undefined }, error: /apiKey: is required/ },
  { name: "an empty API key", set: { path: "apiKey", value: "" }, error: /apiKey: is required/ },
  { name: "an API key that is a number", set: { path: "apiKey", value: 123456 }, error: /apiKey: .*string/ },
  { name: "an unknown environment name", set: { path: "environment", value: "staging" }, error: ENVIRONMENT_HINT },
  {
    name: "an environment name in capitals",
    set: { path: "environment", value: "PRODUCTION" },
    error: ENVIRONMENT_HINT,
  },
  {
    name: "an unknown capture type",
    set: { path: "captureType", value: "LATER" },
    error: /captureType: Invalid option: expected one of/,
  },
  {
    name: "a language that is not ISO 639-2",
    set: { path: "language", value: "english" },
    error: /language: must be an ISO 639-2 code/,
  },
  {
    name: "a result URL that is not a URL",
    set: { path: "resultUrl", value: "checkout/result" },
    error: /resultUrl: must be an absolute http\(s\) URL/,
  },
  { name: "no cancel URL", set: { path: "cancelUrl", value: undefined }, error: /cancelUrl: / },
  {
    name: "a notification URL that is an object",
    set: { path: "notificationUrl", value: { url: "https://shop.example" } },
    error: /notificationUrl: /,
  },
  {
    name: "an order id prefix too long",
    set: { path: "orderIdPrefix", value: "SHOP1" },
    error: /orderIdPrefix: must be at most 4 letters or digits/,
  },
  {
    name: "an order id prefix with a dash",
    set: { path: "orderIdPrefix", value: "S-1" },
    error: /orderIdPrefix: must be at most 4 letters or digits/,
  },
  { name: "a negative timeout", set: { path: "timeoutMs", value: -5 }, error: /timeoutMs: / },
  { name: "a timeout given as text", set: { path: "timeoutMs", value: "15000" }, error: /timeoutMs: .*number/ },
  { name: "too many retries", set: { path: "retries", value: 9 }, error: /retries: / },
  {
    name: "a fractional poll delay",
    set: { path: "pollPendingAfterSeconds", value: 1.5 },
    error: /pollPendingAfterSeconds: /,
  },
  {
    name: "a description over 255 characters",
    set: { path: "description", value: longText(256) },
    error: /description: /,
  },
  {
    name: "mobile payments without a consumer secret",
    set: { path: "apm.consumerSecret", value: undefined },
    error: /apm\.consumerSecret: /,
  },
  {
    name: "mobile payments with an empty merchant id",
    set: { path: "apm.merchantId", value: "" },
    error: /apm\.merchantId: is required/,
  },
  {
    name: "mobile payments without a service URL",
    set: { path: "apm.environment", value: "sandbox" },
    error: /apm\.environment: must be an absolute http\(s\) URL/,
  },
  {
    name: "no mobile payment scheme",
    set: { path: "apm.methods", value: [] },
    error: /apm\.methods: must list at least one scheme/,
  },
  {
    name: "an unknown mobile payment scheme",
    set: { path: "apm.methods", value: ["PSP_B", "PSP_Z"] },
    error: /apm\.methods\.1: /,
  },
  {
    name: "a scheme logo that is not a URL",
    set: { path: "apm.logoUrls.PSP_B", value: "logo.svg" },
    error: /apm\.logoUrls\.PSP_B: must be an absolute http\(s\) URL/,
  },
  {
    name: "a blank scheme name",
    set: { path: "apm.names.PSP_C", value: "   " },
    error: /apm\.names\.PSP_C: must not be empty/,
  },
  // URLs: http(s) only, https off the machine, base URLs without a query or a fragment, no spaces or control characters.
  {
    name: "a javascript: environment",
    set: { path: "environment", value: "javascript:alert(1)" },
    error: new RegExp(`${ENVIRONMENT_HINT.source}; this URL ${notHttp("javascript").source}`),
  },
  {
    name: "a plain http environment on another host",
    set: { path: "environment", value: "http://gateway.example" },
    error: new RegExp(`${ENVIRONMENT_HINT.source}; this URL ${PLAIN_HTTP.source}`),
  },
  {
    name: "an environment with a query",
    set: { path: "environment", value: "https://gateway.example/api?key=1" },
    error: /environment: .*this URL must be a base URL without a query \(\?\.\.\.\)/,
  },
  {
    name: "an environment with a space",
    set: { path: "environment", value: "https://gateway.example/ api" },
    error: new RegExp(`environment: .*this URL ${NO_SPACES.source}`),
  },
  {
    name: "a javascript: result URL",
    set: { path: "resultUrl", value: "javascript:alert(document.cookie)" },
    error: new RegExp(`resultUrl: ${notHttp("javascript").source}`),
  },
  {
    name: "a data: result URL",
    set: { path: "resultUrl", value: "data:text/html,<script>alert(1)</script>" },
    error: new RegExp(`resultUrl: ${notHttp("data").source}`),
  },
  {
    name: "a plain http result URL on another host",
    set: { path: "resultUrl", value: "http://shop.example/checkout/result" },
    error: new RegExp(`resultUrl: ${PLAIN_HTTP.source}`),
  },
  {
    name: "a plain http result URL on a host that only starts like loopback",
    set: { path: "resultUrl", value: "http://127.0.0.1.shop.example/result" },
    error: new RegExp(`resultUrl: ${PLAIN_HTTP.source}`),
  },
  {
    name: "a result URL with a space",
    set: { path: "resultUrl", value: "https://shop.example/check out" },
    error: new RegExp(`resultUrl: ${NO_SPACES.source}`),
  },
  {
    name: "an ftp: cancel URL",
    set: { path: "cancelUrl", value: "ftp://shop.example/cancel" },
    error: new RegExp(`cancelUrl: ${notHttp("ftp").source}`),
  },
  {
    name: "a plain http cancel URL on another host",
    set: { path: "cancelUrl", value: "http://shop.example/cancel" },
    error: new RegExp(`cancelUrl: ${PLAIN_HTTP.source}`),
  },
  {
    name: "a cancel URL with a newline and a header after it",
    set: { path: "cancelUrl", value: "https://shop.example/cancel\r\nX-Injected: 1" },
    error: new RegExp(`cancelUrl: ${NO_SPACES.source}`),
  },
  {
    name: "a data: notification URL",
    set: { path: "notificationUrl", value: "data:text/plain,hello" },
    error: new RegExp(`notificationUrl: ${notHttp("data").source}`),
  },
  {
    name: "a plain http notification URL on another host",
    set: { path: "notificationUrl", value: "http://shop.example" },
    error: new RegExp(`notificationUrl: ${PLAIN_HTTP.source}`),
  },
  {
    name: "a notification URL with a query",
    set: { path: "notificationUrl", value: "https://shop.example/?token=1" },
    error: /notificationUrl: must be a base URL without a query \(\?\.\.\.\)/,
  },
  {
    name: "a notification URL with an empty query",
    set: { path: "notificationUrl", value: "https://shop.example/?" },
    error: /notificationUrl: must be a base URL without a query \(\?\.\.\.\)/,
  },
  {
    name: "a notification URL with a fragment",
    set: { path: "notificationUrl", value: "https://shop.example/#hooks" },
    error: /notificationUrl: must be a base URL without a fragment \(#\.\.\.\)/,
  },
  {
    name: "a notification URL ending in a newline",
    set: { path: "notificationUrl", value: "https://shop.example\n" },
    error: new RegExp(`notificationUrl: ${NO_SPACES.source}`),
  },
  {
    name: "an ftp: mobile payment service URL",
    set: { path: "apm.environment", value: "ftp://apm.example" },
    error: new RegExp(`apm\\.environment: ${notHttp("ftp").source}`),
  },
  {
    name: "a plain http mobile payment service URL on another host",
    set: { path: "apm.environment", value: "http://apm.example" },
    error: new RegExp(`apm\\.environment: ${PLAIN_HTTP.source}`),
  },
  {
    name: "a mobile payment service URL with a query",
    set: { path: "apm.environment", value: "https://apm.example/?v=2" },
    error: /apm\.environment: must be a base URL without a query/,
  },
  {
    name: "a javascript: scheme logo",
    set: { path: "apm.logoUrls.PSP_B", value: "javascript:alert(1)" },
    error: new RegExp(`apm\\.logoUrls\\.PSP_B: ${notHttp("javascript").source}`),
  },
  {
    name: "a data: scheme logo",
    set: { path: "apm.logoUrls.PSP_B", value: "data:image/svg+xml,<svg/>" },
    error: new RegExp(`apm\\.logoUrls\\.PSP_B: ${notHttp("data").source}`),
  },
  {
    name: "a plain http scheme logo on another host",
    set: { path: "apm.logoUrls.PSP_B", value: "http://cdn.example/psp-b.svg" },
    error: new RegExp(`apm\\.logoUrls\\.PSP_B: ${PLAIN_HTTP.source}`),
  },
]

export const SESSION_CASES: SessionCase[] = [
  {
    name: "a mobile payment without the shopper's consumer id",
    body: { provider_id: APM, data: {} },
    status: 400,
    message: /data\.consumer_id/,
  },
  {
    name: "a mobile payment with a blank consumer id",
    body: { provider_id: APM, data: { consumer_id: "   " } },
    status: 400,
    message: /data\.consumer_id/,
  },
  {
    name: "a mobile payment with a consumer id that is an object",
    body: { provider_id: APM, data: { consumer_id: { phone: "+4712345678" } } },
    status: 400,
    message: /data\.consumer_id/,
  },
  {
    name: "a mobile payment with a consumer id that is a list",
    body: { provider_id: APM, data: { consumer_id: ["+4712345678"] } },
    status: 400,
    message: /data\.consumer_id/,
  },
  {
    name: "a mobile scheme that refuses the cart's currency",
    body: { provider_id: "pp_nexi-apm-psp-c_nexi", data: { consumer_id: "+4712345678" } },
    status: 400,
    message: /Currency EUR is not accepted by PSP_C/,
    supersedesOtherSessions: true,
  },
  {
    name: "session data that is not an object",
    body: { provider_id: "pp_nexi_nexi", data: "pay now" },
    status: 400,
    message: /data/,
  },
  { name: "a provider id that is a number", body: { provider_id: 42 }, status: 400, message: /provider_id/ },
  {
    name: "a Nexi provider that does not exist",
    body: { provider_id: "pp_nexi-apm-psp-z_nexi", data: { consumer_id: "+4712345678" } },
    status: 400,
    message: /Payment provider pp_nexi-apm-psp-z_nexi is not enabled in the cart's region/,
  },
]

const CARD_PROVIDER = "pp_nexi_nexi"
const LESS_THAN_A_CENT =
  /^Could not start the payment: amount: 0\.004 EUR is less than one minor unit of EUR \(0\.01\) and cannot be charged or refunded$/

export const AMOUNT_CASES: AmountCase[] = [
  {
    name: "a card payment of less than one cent",
    provider_id: CARD_PROVIDER,
    amount: 0.004,
    currency_code: "eur",
    message: LESS_THAN_A_CENT,
  },
  {
    name: "a card payment of less than one yen",
    provider_id: CARD_PROVIDER,
    amount: 0.5,
    currency_code: "jpy",
    message: /^Could not start the payment: amount: 0\.5 JPY is less than one minor unit of JPY \(1\)/,
  },
  {
    name: "a negative card payment",
    provider_id: CARD_PROVIDER,
    amount: -19.99,
    currency_code: "eur",
    message: /^Could not start the payment: amount: must not be negative \(got -19\.99\)$/,
  },
  {
    name: "a card payment in a currency that does not exist",
    provider_id: CARD_PROVIDER,
    amount: 19.99,
    currency_code: "abc",
    message: /^Could not start the payment: currency_code: "ABC" is not an ISO 4217 currency this plugin knows$/,
  },
  {
    name: "a mobile payment of less than one cent",
    provider_id: APM,
    amount: "0.004",
    currency_code: "eur",
    data: { consumer_id: "+4712345678" },
    message: LESS_THAN_A_CENT,
  },
  {
    name: "a mobile payment of nothing",
    provider_id: APM,
    amount: 0,
    currency_code: "eur",
    data: { consumer_id: "+4712345678" },
    message: /^Could not start the payment: amount: a payment of 0 EUR cannot be started$/,
  },
  {
    name: "a mobile payment in yen, which has no hundredths",
    provider_id: APM,
    amount: 5000,
    currency_code: "jpy",
    data: { consumer_id: "+4712345678" },
    message:
      /^Could not start the payment: the mobile payment scheme PSP_B takes amounts in hundredths, and JPY has 0 decimals \(ISO 4217\)/,
  },
  {
    name: "a mobile payment in Kuwaiti dinars, which have thousandths",
    provider_id: APM,
    amount: 1.234,
    currency_code: "kwd",
    data: { consumer_id: "+4712345678" },
    message:
      /^Could not start the payment: the mobile payment scheme PSP_B takes amounts in hundredths, and KWD has 3 decimals \(ISO 4217\)/,
  },
]

/** Keys only the plugin sets (src/api/utils/payment-session-request.ts); a storefront sending them is dropped. */
export const DROPPED_DATA_CASES: DroppedDataCase[] = [
  { name: "a card session the storefront marks as MOTO", provider_id: CARD_PROVIDER, forged: { moto: true } },
  {
    name: "a card session the storefront marks as collected by staff",
    provider_id: CARD_PROVIDER,
    forged: { staff_channel: "mit" },
  },
  {
    name: "a card session with a forged cart snapshot",
    provider_id: CARD_PROVIDER,
    forged: { nexi_cart: { id: "cart_forged", total: 0.01, items: [] } },
  },
  {
    name: "a card session with a gateway order id of the storefront's choosing",
    provider_id: CARD_PROVIDER,
    forged: { order_id: "{{orderId}}" },
  },
  {
    name: "a card session with a security token hash of the storefront's choosing",
    provider_id: CARD_PROVIDER,
    forged: { security_token_hash: "0".repeat(64) },
  },
]

/** A body with every member a gateway notification has; each case spoils or forges one part. */
const notification = (operation: Record<string, unknown>, members: Record<string, unknown> = {}) => ({
  eventId: "0d9f6a52-3f1e-4b7a-9c55-1e2f3a4b5c6d",
  eventTime: "2026-01-15T10:00:00.000Z",
  securityToken: "guessed-token",
  operation: {
    orderId: "{{orderId}}",
    operationType: "AUTHORIZATION",
    operationResult: "AUTHORIZED",
    operationAmount: "1999",
    ...operation,
  },
  ...members,
})
/** The warning for a body that is not a notification, naming the first field that is wrong. */
const notANotification = (field: string) =>
  new RegExp(`ignored a notification that is not a gateway notification \\(${field.replace(/[.()]/g, "\\$&")}: `)
const TOKEN_MISMATCH = /ignored a notification for order \w+ whose security token does not match/

export const NOTIFICATION_CASES: NotificationCase[] = [
  { name: "an empty object", body: {}, status: 200, warning: notANotification("eventId") },
  {
    name: "an object that is not a notification",
    body: { hello: "world" },
    status: 200,
    warning: notANotification("eventId"),
  },
  { name: "a list", body: [1, 2, 3], status: 200, warning: notANotification("(body)") },
  {
    name: "an operation that is text",
    body: notification({}, { operation: "AUTHORIZATION AUTHORIZED" }),
    status: 200,
    warning: notANotification("operation"),
  },
  {
    name: "an order id that is a number",
    body: notification({ orderId: 1234567 }),
    status: 200,
    warning: notANotification("operation.orderId"),
  },
  {
    name: "an amount that is a number",
    body: notification({ operationAmount: 19.99 }),
    status: 200,
    warning: notANotification("operation.operationAmount"),
  },
  // An operation type or result the plugin does not know is set aside (never read as paid); the token decides.
  {
    name: "an unknown operation result",
    body: notification({ operationResult: "PAID" }),
    status: 200,
    warning: TOKEN_MISMATCH,
  },
  {
    name: "an unknown operation result claiming success for an unpaid order, with its genuine token",
    body: notification({ operationType: "CAPTURE", operationResult: "SETTLED_OK" }, { securityToken: "{{token}}" }),
    status: 200,
  },
  {
    name: "an event time in epoch seconds",
    body: notification({}, { eventTime: 1768471200 }),
    status: 200,
    warning: TOKEN_MISMATCH,
  },
  {
    name: "an event time that is garbage",
    body: notification({}, { eventTime: "yesterday-ish" }),
    status: 200,
    warning: TOKEN_MISMATCH,
  },
  {
    name: "a security token of 10 kB",
    body: notification({}, { securityToken: longText(10 * 1024) }),
    status: 200,
    warning: TOKEN_MISMATCH,
  },
  {
    name: "an operation nested 20 levels deep",
    body: notification({}, { operation: nested(20, { orderId: "{{orderId}}" }) }),
    status: 200,
    warning: notANotification("operation.orderId"),
  },
  {
    name: "a body of lists nested 20 levels deep",
    body: nestedList(20),
    status: 200,
    warning: notANotification("(body)"),
  },
  {
    name: "an event time that is an object",
    body: notification({}, { eventTime: { date: "today" } }),
    status: 200,
    warning: notANotification("eventTime"),
  },
  {
    name: "a security token that is a number",
    body: notification({}, { securityToken: 12345 }),
    status: 200,
    warning: notANotification("securityToken"),
  },
  {
    name: "a real order without a security token",
    body: notification({}, { securityToken: undefined }),
    status: 200,
    warning: notANotification("securityToken"),
  },
  {
    name: "deeply nested junk",
    body: { operation: { orderId: { a: { b: { c: { d: ["{{orderId}}"] } } } } } },
    status: 200,
    warning: notANotification("eventId"),
  },
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
  {
    name: "a forged notification sent as plain text",
    raw: JSON.stringify(notification({})),
    contentType: "text/plain",
    status: 200,
    warning: TOKEN_MISMATCH,
  },
  {
    name: "a form-encoded body",
    raw: "orderId={{orderId}}&operationResult=AUTHORIZED",
    contentType: "application/x-www-form-urlencoded",
    status: 200,
    warning: /ignored a notification that is not a gateway notification \(the body is not JSON\)/,
  },
  {
    name: "invalid JSON",
    raw: '{"operation": {"orderId": ',
    contentType: "application/json",
    status: 400,
    message: /JSON|Unexpected|parse/i,
  },
  {
    name: "a body of several megabytes",
    raw: JSON.stringify(notification({}, { padding: longText(3 * 1024 * 1024) })),
    contentType: "application/json",
    status: 413,
    message: /too large/i,
  },
  {
    name: "a notification to a mobile payment provider, which has none",
    provider: "nexi-apm-psp-b_nexi",
    body: notification({}),
    status: 200,
    warning: /PSP_B has no notifications/,
  },
]

export const ROUTE_CASES: RouteCase[] = [
  {
    name: "payment methods without a region",
    method: "GET",
    path: "/store/nexi/payment-methods",
    status: 400,
    message: /region_id: is required/,
  },
  {
    name: "payment methods with an empty region",
    method: "GET",
    path: "/store/nexi/payment-methods?region_id=",
    status: 400,
    message: /region_id: is required/,
  },
  {
    name: "payment methods of a region that does not exist",
    method: "GET",
    path: "/store/nexi/payment-methods?region_id=reg_nosuchregion",
    status: 404,
    message: /region_id: no region reg_nosuchregion/,
  },
  {
    name: "the status of something that is not a payment session",
    method: "GET",
    path: "/store/nexi/payment-sessions/cart_123",
    status: 400,
    message: /id: must be a payment session id/,
  },
  {
    name: "the status of a payment session that does not exist",
    method: "GET",
    path: "/store/nexi/payment-sessions/payses_nosuchsession?cart_id=cart_nosuchcart",
    status: 404,
    message: /^Payment session not found$/,
  },
  {
    name: "the status of a payment session without its cart",
    method: "GET",
    path: "/store/nexi/payment-sessions/payses_nosuchsession",
    status: 404,
    message: /^Payment session not found$/,
  },
  // A real session: only its own cart may read it, and every other caller gets the answer an unknown session gets.
  {
    name: "the status of a real payment session without its cart",
    method: "GET",
    path: "/store/nexi/payment-sessions/{{sessionId}}",
    status: 404,
    message: /^Payment session not found$/,
  },
  {
    name: "the status of a real payment session with an empty cart id",
    method: "GET",
    path: "/store/nexi/payment-sessions/{{sessionId}}?cart_id=",
    status: 404,
    message: /^Payment session not found$/,
  },
  {
    name: "the status of a real payment session asked by another shopper's cart",
    method: "GET",
    path: "/store/nexi/payment-sessions/{{sessionId}}?cart_id={{otherCartId}}",
    status: 404,
    message: /^Payment session not found$/,
  },
  {
    name: "the status of a real payment session with its cart id given twice",
    method: "GET",
    path: "/store/nexi/payment-sessions/{{sessionId}}?cart_id={{cartId}}&cart_id={{otherCartId}}",
    status: 404,
    message: /^Payment session not found$/,
  },
  // Admin routes (docs/admin-api.md). A refused MOTO must not reach the gateway, and no answer repeats the card.
  {
    name: "a MOTO card number with spaces",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { order_id: "order_01ABC", card: { ...CARD, pan: "4999 3402 6197 7289" } },
    status: 400,
    message: /^card\.pan: must be 13 to 19 digits/,
  },
  {
    name: "a MOTO card with a wrong check digit and a past expiry",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { order_id: "order_01ABC", card: { ...CARD, pan: "4999340261977288", expiryDate: "0120" } },
    status: 400,
    message: /card\.pan: is not a valid card number.*card\.expiryDate: the card has expired/,
  },
  {
    name: "a MOTO CVV of letters",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { order_id: "order_01ABC", card: { ...CARD, cvv: "abc" } },
    status: 400,
    message: /card\.cvv: /,
  },
  {
    name: "a MOTO amount chosen by the caller",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { order_id: "order_01ABC", card: CARD, amount: 1 },
    status: 400,
    message: /^amount: is not accepted here$/,
  },
  {
    name: "a MOTO without a card",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { order_id: "order_01ABC" },
    status: 400,
    message: /^card: is required$/,
  },
  {
    name: "a MOTO for an order that does not exist",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: { draft_order_id: "order_01NOSUCHORDER", card: CARD },
    status: 404,
    message: /^draft_order_id: no order order_01NOSUCHORDER$/,
  },
  {
    name: "a MOTO body that is a list",
    method: "POST",
    path: "/admin/nexi/moto",
    admin: true,
    body: [CARD],
    status: 400,
    message: /^\(request\): .*expected object/,
  },
  {
    name: "a card verification with a bad email",
    method: "POST",
    path: "/admin/nexi/card-verifications",
    admin: true,
    body: { card: CARD, customer_email: "not-an-email" },
    status: 400,
    message: /^customer_email: must be an email address$/,
  },
  {
    name: "a capture cancel without its operation or reason",
    method: "POST",
    path: "/admin/nexi/payments/pay_01ABC/cancel-capture",
    admin: true,
    body: {},
    status: 400,
    message: /operation_id: is required; reason: is required/,
  },
  {
    name: "a sync of something that is not a payment",
    method: "POST",
    path: "/admin/nexi/payments/order_1/sync",
    admin: true,
    body: {},
    status: 400,
    message: /^id: must be a payment id \(pay_\.\.\.\)$/,
  },
  {
    name: "an operations list with a word for a number",
    method: "GET",
    path: "/admin/nexi/operations?maxRecords=ten",
    admin: true,
    status: 400,
    message: /^maxRecords: must be a whole number above 0$/,
  },
  {
    name: "a gateway order id with a dash",
    method: "GET",
    path: "/admin/nexi/orders/NOT-AN-ORDER-ID",
    admin: true,
    status: 400,
    message: /^orderId: must be 1 to 18 letters and digits$/,
  },
]
