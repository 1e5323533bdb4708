/**
 * The alternative-payment transaction service's resources (docs/contract/apm.md), as zod schemas
 * shared by the client (answers) and the simulator (requests). Amounts here are integers
 * in hundredths, not strings as on the card gateway.
 */
import { z } from "zod"
import { openEnum, unrecognizedField, withUnknownSetAside } from "../gateway/tolerant-reader"

export const APM_METHODS = ["PSP_A_E_COM", "PSP_B", "PSP_C", "PSP_D"] as const
export const ApmMethodSchema = z.enum(APM_METHODS)
export type ApmMethod = z.infer<typeof ApmMethodSchema>

export const TRANSACTION_TYPES = ["payment", "refund", "reversal"] as const
export const TransactionTypeSchema = z.enum(TRANSACTION_TYPES)
export type TransactionType = z.infer<typeof TransactionTypeSchema>

export const TRANSACTION_STATES = [
  "INITIALIZED",
  "AUTHORIZED",
  "FINALIZED",
  "REPORTED",
  "STALE",
  "PENDING",
  "REJECTED",
  "CANCELLED",
  "FAILED",
  "RESERVED",
  "TIMEDOUT",
] as const
export const TransactionStateSchema = z.enum(TRANSACTION_STATES)
export type TransactionState = z.infer<typeof TransactionStateSchema>

const TRANSITION_EVENTS = [
  "CREATE",
  "AUTHORIZE",
  "FINALIZE",
  "REPORT",
  "AGE",
  "REJECT",
  "CANCEL",
  "RESEND",
  "FAIL",
  "RESERVE",
  "TIMEOUT",
] as const
export const TransitionEventSchema = z.enum(TRANSITION_EVENTS)
export type TransitionEvent = z.infer<typeof TransitionEventSchema>

export const ACCOUNT_STATES = ["COMMIT", "ROLLBACK"] as const
export const AccountStateSchema = z.enum(ACCOUNT_STATES)
export type AccountState = z.infer<typeof AccountStateSchema>

/** RESPONSE_OK=0, RESPONSE_RESEND=1, RESPONSE_REJECT=-1, RESPONSE_CANCEL=-2, RESPONSE_PENDING=-3. */
export const RESPONSE_CODES = {
  OK: 0,
  RESEND: 1,
  REJECT: -1,
  CANCEL: -2,
  PENDING: -3,
} as const
export type ResponseCode = (typeof RESPONSE_CODES)[keyof typeof RESPONSE_CODES]
export const ResponseCodeSchema = z.union([z.literal(0), z.literal(1), z.literal(-1), z.literal(-2), z.literal(-3)])

/** The contract's codes keep their literal types; any other integer passes (they decide nothing: states do). */
const OpenResponseCodeSchema = z.union([ResponseCodeSchema, z.number().int()])

export const CHANNELS = ["INTERNAL", "WS_REST", "WS_REST_CALLBACK"] as const

/**
 * The service's int64 ids (transactionId). Above 2^53 a JSON number loses digits, so the client
 * reads such literals as strings (http-apm-client.ts); below, they stay numbers. Either way only
 * a whole number is accepted, and a number a double cannot hold exactly is refused, not rounded.
 */
export const Int64IdSchema = z.union([
  z.number().int().refine(Number.isSafeInteger, "is beyond 2^53 and lost digits when read as a number"),
  z.string().regex(/^-?\d+$/, "must be a whole number"),
])

const Hundredths = z.number().int("must be a whole number of hundredths").nonnegative("must not be negative")

export const AmountSchema = z.looseObject({
  currencyCode: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code in upper case"),
  vatAmount: Hundredths,
  nominalAmount: Hundredths,
  totalAmount: Hundredths,
})
export type ApmAmount = z.infer<typeof AmountSchema>

export const ConsumerSchema = z.looseObject({
  consumerId: z.string().min(1, "must not be empty"),
  name: z.string().min(1, "must not be empty"),
})
export type Consumer = z.infer<typeof ConsumerSchema>

export const OrderItemSchema = z.looseObject({
  itemNo: z.string().optional(),
  reference: z.string().optional(),
  name: z.string().optional(),
  quantity: z.number().int().optional(),
  unit: z.string().optional(),
  unitPrice: Hundredths.optional(),
  taxRate: Hundredths.optional(),
  taxAmount: Hundredths.optional(),
  grossTotalAmount: Hundredths.optional(),
  netTotalAmount: Hundredths.optional(),
})
export type OrderItem = z.infer<typeof OrderItemSchema>

export const ApmOrderSchema = z.looseObject({
  items: z.array(OrderItemSchema).optional(),
  amount: z.number().int().optional(),
  currency: z.string().optional(),
  reference: z.string().optional(),
})
export type ApmOrder = z.infer<typeof ApmOrderSchema>

export const Ecr2NaaSchema = z.looseObject({
  ver: z.string().optional(),
  reference: z.string().optional(),
  lang: z.string().optional(),
  order: ApmOrderSchema.optional(),
  autoCapture: z.string().optional(),
})
export type Ecr2Naa = z.infer<typeof Ecr2NaaSchema>

/** Requests: the plugin sends only filled pairs, and the simulator holds it to that. */
export const KeyValueSchema = z.looseObject({
  key: z.string().min(1, "must not be empty"),
  value: z.string().min(1, "must not be empty"),
})

/** Answers: the contract requires both members, not that they be filled; an empty one is read as sent. */
const AnsweredKeyValueSchema = z.looseObject({ key: z.string(), value: z.string() })

export const InitializeRequestSchema = z.looseObject({
  merchantId: z.string().min(1, "must not be empty"),
  method: ApmMethodSchema,
  purchaseAmount: AmountSchema,
  consumer: ConsumerSchema,
  ecr2Naa: Ecr2NaaSchema.optional(),
  batch: z.number().int().optional(),
  terminalReference: z.string().optional(),
  originalReference: z.string().optional(),
  message: z.string().optional(),
  trigger: z.enum(["0", "2"]).optional(),
  additionalProperties: z.array(KeyValueSchema).optional(),
})
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>

/** History only, never decided on (core/mobile/mobile-transaction.ts), so any state or event name is read as sent. */
export const TransitionSchema = z.looseObject({
  timeStamp: z.string().optional(),
  from: openEnum(TRANSACTION_STATES).optional(),
  to: openEnum(TRANSACTION_STATES).optional(),
  event: openEnum(TRANSITION_EVENTS).optional(),
})
export type Transition = z.infer<typeof TransitionSchema>

export const MerchantSchema = z.looseObject({
  merchantId: z.string().optional(),
  name: z.string().optional(),
  orgNumber: z.string().optional(),
  vatNumber: z.string().optional(),
  active: z.number().int().optional(),
  countryCode: z.string().optional(),
  merchantCatCode: z.string().optional(),
  merchantCity: z.string().optional(),
})

export const ReceiptSchema = z.looseObject({
  receiptId: z.number().int().optional(),
  timeStamp: z.string().optional(),
  receiptData: z.array(z.unknown()).optional(),
  receiptClass: z.string().optional(),
})

/**
 * The states money is decided on: a value outside the contract's lists is set aside under
 * `unrecognized` (tolerant-reader.ts), never read as a known state.
 */
const DECIDING_STATES = { state: TRANSACTION_STATES, accountState: ACCOUNT_STATES } as const

const TransactionObjectSchema = z.looseObject({
  transactionId: Int64IdSchema.optional(),
  terminalReference: z.string().optional(),
  referenceId: z.string().optional(),
  agreementNumber: z.string().optional(),
  batch: z.number().int().optional(),
  timeStampOrigin: z.string().optional(),
  timeStamp: z.string().optional(),
  amount: AmountSchema,
  method: z.string().optional(),
  accountState: AccountStateSchema.optional(),
  cancel: z.boolean().optional(),
  message: z.string().optional(),
  state: TransactionStateSchema.optional(),
  origin: z.string().optional(),
  merchant: MerchantSchema,
  consumer: ConsumerSchema.optional(),
  receipt: ReceiptSchema.optional(),
  transitions: z.array(TransitionSchema).optional(),
  parameters: z
    .array(
      z.looseObject({
        parameterId: z.number().int().optional(),
        key: z.string().optional(),
        value: z.string().optional(),
      }),
    )
    .optional(),
  order: ApmOrderSchema.optional(),
  trigger: z.string().optional(),
  transientConsumerId: z.string().optional(),
  unrecognized: unrecognizedField,
})
export const TransactionSchema = withUnknownSetAside(TransactionObjectSchema, DECIDING_STATES)
export type Transaction = z.infer<typeof TransactionSchema>

export const Naa2EcrSchema = z.looseObject({
  schemeId: z.string().optional(),
  ppref: z.string().optional(),
  payerId: z.string().optional(),
  additionalInfo: z.string().optional(),
  loyaltyIds: z.array(z.unknown()).optional(),
})

export const TransactionResponseSchema = z.looseObject({
  responseCode: OpenResponseCodeSchema.optional(),
  extendedResponseCode: OpenResponseCodeSchema.optional(),
  request: z
    .looseObject({
      transaction: TransactionSchema.optional(),
      channel: openEnum(CHANNELS),
      additionalProperties: z.array(AnsweredKeyValueSchema).optional(),
      ecr2Naa: Ecr2NaaSchema.optional(),
    })
    .optional(),
  naa2Ecr: Naa2EcrSchema.optional(),
})
export type TransactionResponse = z.infer<typeof TransactionResponseSchema>

export const NextLinkSchema = z.looseObject({
  type: z.string().optional(),
  uriBuilder: z.looseObject({}).optional(),
  rels: z.array(z.string()).optional(),
  params: z.record(z.string(), z.string()).optional(),
  uri: z.string().optional(),
  rel: z.string().optional(),
  title: z.string().optional(),
})
export type NextLink = z.infer<typeof NextLinkSchema>

export const FaultSchema = z.looseObject({
  explanationText: z.string().optional(),
  params: z.record(z.string(), z.string()).optional(),
})

const CompositeFaultSchema = z.looseObject({ faults: z.array(FaultSchema).optional() })

/**
 * The contract spells the member "componsiteFault" and its prose "compositeFault": both are
 * read (faultsOf), so a service that fixes the typo still has its faults shown.
 */
export const ErrorObjectSchema = z.looseObject({
  componsiteFault: CompositeFaultSchema.optional(),
  compositeFault: CompositeFaultSchema.optional(),
  message: z.string().optional(),
})
export type ErrorObject = z.infer<typeof ErrorObjectSchema>

/** The faults of an error object, under either spelling. */
export function faultsOf(error: ErrorObject | undefined): z.infer<typeof FaultSchema>[] {
  return [...(error?.componsiteFault?.faults ?? []), ...(error?.compositeFault?.faults ?? [])]
}

export const EnvelopeSchema = z.looseObject({
  valid: z.boolean(),
  error: ErrorObjectSchema.optional(),
  response: TransactionResponseSchema.optional(),
  nextLink: NextLinkSchema.optional(),
})
export type Envelope = z.infer<typeof EnvelopeSchema>

/** The status operation answers the extended envelope. */
export const ExtendedEnvelopeSchema = withUnknownSetAside(
  EnvelopeSchema.extend({
    transactionId: Int64IdSchema.optional(),
    timeStamp: z.string().optional(),
    state: TransactionStateSchema.optional(),
    accountState: AccountStateSchema.optional(),
    receipt: ReceiptSchema.optional(),
    payerId: z.string().optional(),
    qrTrigger: z.string().optional(),
    naa2Ecr: Naa2EcrSchema.optional(),
    unrecognized: unrecognizedField,
  }),
  DECIDING_STATES,
)
export type ExtendedEnvelope = z.infer<typeof ExtendedEnvelopeSchema>
