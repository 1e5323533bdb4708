/**
 * The options a store gives the Nexi providers in medusa-config.ts, validated once when the
 * store boots. A bad value stops the store with a message naming the option, rather than
 * failing the first shopper's checkout.
 */
import { z } from "zod"
import { APM_METHODS, ApmMethodSchema } from "../../apm/schemas"
import { CAPTURE_TYPES } from "../../gateway/schemas"

const urlOption = z.url({ message: "must be an absolute http(s) URL" })

/** `sandbox`, `production`, or a base URL (the simulator, a proxy). */
const environmentOption = z.union([z.enum(["sandbox", "production"]), urlOption])

const positiveInt = z.number().int().positive()

export const ApmOptionsSchema = z.object({
  consumerKey: z.string().min(1, "is required"),
  consumerSecret: z.string().min(1, "is required"),
  merchantId: z.string().min(1, "is required"),
  /** The transaction service publishes no public address: give its base URL. */
  environment: urlOption,
  methods: z.array(z.enum(APM_METHODS)).min(1, "must list at least one scheme").default([...APM_METHODS]),
  terminalReference: z.string().min(1).optional(),
  timeoutMs: positiveInt.default(15_000),
  retries: z.number().int().min(0).max(5).default(2),
  /** How long the job waits between two status reads of a pending transaction, at first. */
  pollIntervalSeconds: positiveInt.default(5),
  /** A transaction still pending after this long is treated as timed out. */
  pollTimeoutSeconds: positiveInt.default(600),
  /** What shoppers see for each scheme (GET /store/nexi/payment-methods); defaults in apm/schemes.ts. */
  names: z.partialRecord(ApmMethodSchema, z.string().trim().min(1, "must not be empty")).default({}),
  /** Logo of each scheme for the storefront; without one a neutral phone icon is listed. */
  logoUrls: z.partialRecord(ApmMethodSchema, urlOption).default({}),
})

export const NexiOptionsSchema = z.object({
  apiKey: z.string().min(1, "is required"),
  environment: environmentOption.default("sandbox"),
  captureType: z.enum(CAPTURE_TYPES).default("EXPLICIT"),
  /** ISO 639-2 code of the hosted page when the shopper's locale is unknown. */
  language: z.string().regex(/^[a-z]{3}$/, "must be an ISO 639-2 code such as \"ita\" or \"eng\"").default("eng"),
  /** Storefront page the hosted page returns to; `{cart_id}` and `{session_id}` are filled in. */
  resultUrl: urlOption,
  /** Storefront page the hosted page returns to when the shopper gives up. */
  cancelUrl: urlOption,
  /** The store backend's public base URL; notifications go to `<base>/hooks/payment/nexi_nexi`. */
  notificationUrl: urlOption,
  /** Text shown on the hosted page; `{cart_id}` and `{session_id}` are filled in. */
  description: z.string().max(255).default("Order {cart_id}"),
  /** Up to 4 letters or digits at the start of every gateway order id, to tell stores apart. */
  orderIdPrefix: z.string().regex(/^[A-Za-z0-9]{0,4}$/, "must be at most 4 letters or digits").default(""),
  timeoutMs: positiveInt.default(15_000),
  retries: z.number().int().min(0).max(5).default(2),
  /** Sessions still pending this long after creation are re-read from the gateway by the job. */
  pollPendingAfterSeconds: positiveInt.default(120),
  apm: ApmOptionsSchema.optional(),
})

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
