/**
 * The options a store gives the Nexi providers in medusa-config.ts, validated once when the
 * store boots. A bad value stops the store with a message naming the option, rather than
 * failing the first shopper's checkout.
 */
import { z } from "zod"
import { APM_METHODS, ApmMethodSchema } from "../apm/schemas"
import { CAPTURE_TYPES, WALLETS } from "../gateway/schemas"

/** Hosts that never leave the machine, where plain http carries nothing over a network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  if (host === "localhost") return true
  if (host === "[::1]") return true
  // The URL parser has already turned 127.1, 0x7f.0.0.1 and the like into dotted decimal.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

type UrlKind = {
  /** A base URL that paths are appended to: a query or fragment would end up in the middle. */
  base: boolean
}

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/**
 * What is wrong with `value` as a URL option, or undefined. http(s) only (no `javascript:`,
 * `data:`, `ftp:`...), and https for every host that is not loopback: the API key and the
 * shoppers' data must not cross a network in clear.
 */
function urlProblem(value: string, kind: UrlKind): string | undefined {
  if (/\s/.test(value) || hasControlCharacter(value)) return "must not contain spaces or control characters"
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return "must be an absolute http(s) URL"
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return `must be an http(s) URL, not ${url.protocol}`
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return "must be an https URL (plain http is accepted only for localhost, 127.0.0.0/8 and ::1)"
  }
  if (kind.base && (url.search !== "" || value.includes("?"))) return "must be a base URL without a query (?...)"
  if (kind.base && (url.hash !== "" || value.includes("#"))) return "must be a base URL without a fragment (#...)"
  return undefined
}

/** A string option that must be there: zod's "expected string, received undefined" reads as "is required". */
function requiredString() {
  return z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
}

function urlOption(kind: UrlKind = { base: false }) {
  return requiredString()
    .min(1, "is required")
    .superRefine((value, ctx) => {
      const problem = urlProblem(value, kind)
      if (problem) ctx.addIssue({ code: "custom", message: problem })
    })
}

/** What a payment link's return pages may carry: the link has no cart, and its id is the gateway's, made after them. */
const PAYMENT_LINK_PLACEHOLDERS = ["order_id", "session_id"]

/** A return page of a payment link; a placeholder it does not fill in (a cart's `{cart_id}`) is refused by name. */
function paymentLinkPageOption() {
  return urlOption()
    .superRefine((value, ctx) => {
      for (const [placeholder, name] of value.matchAll(/\{([^}]*)\}/g))
        if (!PAYMENT_LINK_PLACEHOLDERS.includes(name))
          ctx.addIssue({
            code: "custom",
            message: `${placeholder} is not filled in for a payment link, which has no cart: use {order_id} and {session_id}`,
          })
    })
    .optional()
}

/**
 * The storefront page a payment link returns to when the options name none: on the storefront of
 * `resultUrl` (its origin), where the demo storefront and docs/storefront.md serve it.
 */
export const DEFAULT_PAYMENT_LINK_PAGE = "/nexi/payment-link?order_id={order_id}&session_id={session_id}"

/** The storefront's scheme and host: the origin of `resultUrl`, its placeholders aside. */
export function storefrontOrigin(resultUrl: string): string {
  return new URL(resultUrl.replaceAll(/\{\w+\}/g, "")).origin
}

/** The link's pages, defaulted: the cancel page is the result page, which asks the store what happened. */
function withPaymentLinkPages<
  T extends { resultUrl: string; paymentLinkResultUrl?: string; paymentLinkCancelUrl?: string },
>(options: T): T & { paymentLinkResultUrl: string; paymentLinkCancelUrl: string } {
  const storefront = storefrontOrigin(options.resultUrl)
  const resultPage = options.paymentLinkResultUrl ?? `${storefront}${DEFAULT_PAYMENT_LINK_PAGE}`
  return {
    ...options,
    paymentLinkResultUrl: resultPage,
    paymentLinkCancelUrl: options.paymentLinkCancelUrl ?? resultPage,
  }
}

const ENVIRONMENT_HINT = 'must be "sandbox", "production" or an http(s) base URL'

/** `sandbox`, `production`, or a base URL (the simulator, a proxy). */
const environmentOption = z
  .string({ error: ENVIRONMENT_HINT })
  .min(1, ENVIRONMENT_HINT)
  .superRefine((value, ctx) => {
    if (value === "sandbox" || value === "production") return
    if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) {
      ctx.addIssue({ code: "custom", message: ENVIRONMENT_HINT })
      return
    }
    const problem = urlProblem(value, { base: true })
    if (problem) ctx.addIssue({ code: "custom", message: `${ENVIRONMENT_HINT}; this URL ${problem}` })
  })

const positiveInt = z.number().int().positive()

const WALLET_HINT = `must be ${WALLETS.map((wallet) => `"${wallet}"`).join(" or ")}`

/** The wallets the merchant's Nexi contract enables, each once; none by default (cards only). */
const walletsOption = z
  .array(z.enum(WALLETS, { error: WALLET_HINT }), {
    error: `must be a list of the wallets Nexi enabled on the terminal, such as ["GOOGLEPAY", "APPLEPAY"]`,
  })
  .superRefine((wallets, context) => {
    for (const [index, wallet] of wallets.entries())
      if (wallets.indexOf(wallet) !== index)
        context.addIssue({ code: "custom", path: [index], message: `lists ${wallet} a second time` })
  })
  .default([])

/**
 * The longest one gateway call may take with all its retries. The ledger tells a write cut off
 * mid-call from one still waiting for its answer by its age (send-once.ts, STALE_REQUEST_MS:
 * a send and the read after a lost answer), so the options may not let a call outlast this.
 */
export const LONGEST_CALL_MS = 55_000
/** The transport's longest pause between two attempts (http/transport.ts). */
const LONGEST_BACKOFF_MS = 2_000

/** Every attempt timing out, with the longest pause between each two of them. */
function longestCallMs({ timeoutMs, retries }: { timeoutMs: number; retries: number }): number {
  return (retries + 1) * timeoutMs + retries * LONGEST_BACKOFF_MS
}

function refuseCallsTooLong(options: { timeoutMs: number; retries: number }, context: z.RefinementCtx): void {
  if (longestCallMs(options) <= LONGEST_CALL_MS) return
  context.addIssue({
    code: "custom",
    path: ["timeoutMs"],
    message: `with retries ${options.retries}, a call could take ${longestCallMs(options)} ms; (retries + 1) × timeoutMs + retries × ${LONGEST_BACKOFF_MS} must be at most ${LONGEST_CALL_MS}, or a write still waiting for its answer could be taken for one cut off and sent again`,
  })
}

export const ApmOptionsSchema = z
  .object({
    consumerKey: requiredString().min(1, "is required"),
    consumerSecret: requiredString().min(1, "is required"),
    merchantId: requiredString().min(1, "is required"),
    /** The transaction service publishes no public address: give its base URL. */
    environment: urlOption({ base: true }),
    methods: z
      .array(z.enum(APM_METHODS))
      .min(1, "must list at least one scheme")
      .default([...APM_METHODS]),
    terminalReference: z.string().min(1).optional(),
    timeoutMs: positiveInt.default(15_000),
    retries: z.number().int().min(0).max(5).default(2),
    /** How long the job waits between two status reads of a pending transaction, at first. */
    pollIntervalSeconds: positiveInt.default(5),
    /** A transaction still pending after this long is treated as timed out. */
    pollTimeoutSeconds: positiveInt.default(600),
    /** What shoppers see for each scheme (GET /store/nexi/payment-methods); defaults in core/provider-ids.ts. */
    names: z.partialRecord(ApmMethodSchema, z.string().trim().min(1, "must not be empty")).default({}),
    /** Logo of each scheme for the storefront; without one a neutral phone icon is listed. */
    logoUrls: z.partialRecord(ApmMethodSchema, urlOption()).default({}),
  })
  .superRefine(refuseCallsTooLong)

export const NexiOptionsSchema = z
  .object({
    apiKey: requiredString().min(1, "is required"),
    environment: environmentOption.default("sandbox"),
    captureType: z.enum(CAPTURE_TYPES).default("EXPLICIT"),
    /** ISO 639-2 code of the hosted page when the shopper's locale is unknown. */
    language: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be an ISO 639-2 code such as "ita" or "eng"')
      .default("eng"),
    /** Storefront page the hosted page returns to; `{cart_id}` and `{session_id}` are filled in. */
    resultUrl: urlOption(),
    /** Storefront page the hosted page returns to when the shopper gives up. */
    cancelUrl: urlOption(),
    /**
     * Storefront page a payment link's hosted page returns to; `{order_id}` (Medusa's order) and
     * `{session_id}` (the link's payment session) are filled in, the two the store route
     * GET /store/nexi/payment-links/{session_id}?order_id= takes. Defaults to
     * DEFAULT_PAYMENT_LINK_PAGE on the storefront of `resultUrl`.
     */
    paymentLinkResultUrl: paymentLinkPageOption(),
    /** Where a payment link's hosted page returns to when the customer gives up; `paymentLinkResultUrl` by default. */
    paymentLinkCancelUrl: paymentLinkPageOption(),
    /**
     * The store backend's public base URL; notifications go to `<base>/hooks/payment/nexi_nexi`,
     * so it has no query and no fragment.
     */
    notificationUrl: urlOption({ base: true }),
    /**
     * Text shown on the hosted page (plain text, at most 255 characters once filled in):
     * `{items}` ("2 × Moka pot, 1 × Coffee beans", shortened to fit), `{store_name}`,
     * `{cart_id}` and `{session_id}`. The default names the items and the store, and reads
     * "Order at {store_name}" for a cart without lines (DEFAULT_DESCRIPTION in hosted-order.ts).
     */
    description: z.string().max(255).default("{items} – {store_name}"),
    /** The store's name for `{store_name}` in the description; "our store" when not set. */
    storeName: z.string().trim().min(1, "must not be empty").max(255).optional(),
    /** Up to 4 letters or digits at the start of every gateway order id, to tell stores apart. */
    orderIdPrefix: z
      .string()
      .regex(/^[A-Za-z0-9]{0,4}$/, "must be at most 4 letters or digits")
      .default(""),
    timeoutMs: positiveInt.default(15_000),
    retries: z.number().int().min(0).max(5).default(2),
    /** Sessions still pending this long after creation are re-read from the gateway by the job. */
    pollPendingAfterSeconds: positiveInt.default(120),
    /**
     * The wallets shoppers may pay with instead of a card typed in, as the merchant's Nexi
     * contract enables them (Nexi's back office): "GOOGLEPAY", "APPLEPAY". The storefront asks
     * for one in the session data (`wallet`), staff for a payment link; the gateway's page then
     * shows that wallet's button (paymentSession.paymentService).
     */
    wallets: walletsOption,
    apm: ApmOptionsSchema.optional(),
  })
  .superRefine(refuseCallsTooLong)
  .transform(withPaymentLinkPages)

export type NexiOptions = z.infer<typeof NexiOptionsSchema>
export type NexiOptionsInput = z.input<typeof NexiOptionsSchema>
export type ApmOptions = z.infer<typeof ApmOptionsSchema>

export class InvalidOptionsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "InvalidOptionsError"
  }
}

/**
 * One parsed object per configured entry, for the life of the process: the providers and the
 * admin use cases read the same entry, and clients.ts keys its clients (and their kept-alive
 * sockets) on the parsed object.
 */
const parsedOptions = new WeakMap<object, NexiOptions>()

/** Parses the options or throws one error listing every bad option by its path. */
export function parseNexiOptions(options: unknown): NexiOptions {
  const known = options && typeof options === "object" ? parsedOptions.get(options) : undefined
  if (known) return known
  const result = NexiOptionsSchema.safeParse(options ?? {})
  if (result.success) {
    if (options && typeof options === "object") parsedOptions.set(options, result.data)
    return result.data
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.length ? issue.path.join(".") : "(options)"
    return `${name}: ${issue.message}`
  })
  throw new InvalidOptionsError(`medusa-payment-nexi: invalid provider options: ${problems.join("; ")}`)
}
