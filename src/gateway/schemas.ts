/**
 * The card gateway's resources, as zod schemas: the single source of truth for the
 * client (which validates answers) and the simulator (which validates requests).
 *
 * Objects are "loose": a field the gateway adds tomorrow is kept, not stripped, so a
 * newer gateway never breaks an older plugin. Required fields follow docs/contract/gateway.md;
 * where it says "all members are optional in responses" we say so too.
 */
import { z } from "zod"
import { openEnum, unrecognizedField, withUnknownSetAside } from "./tolerant-reader"

/** Whole number of minor units, as the gateway writes amounts: "1999", "0". */
export const MinorAmountSchema = z
  .string()
  .regex(/^\d+$/, 'must be a string of digits (minor units), for example "1999"')

export const CurrencyCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 alphabetic code in upper case, for example "EUR"')

export const CountryAlpha3Schema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 3166-1 alpha-3 country code, for example "ITA"')

export const LanguageAlpha3Schema = z
  .string()
  .regex(/^[a-z]{3}$/, 'must be an ISO 639-2 language code, for example "ita"')

/** Merchant order id: at most 18 letters and digits (docs/contract/gateway.md). */
export const OrderIdSchema = z.string().regex(/^[A-Za-z0-9]{1,18}$/, "must be 1 to 18 letters and digits")

export const OPERATION_TYPES = ["AUTHORIZATION", "CAPTURE", "VOID", "REFUND", "CANCEL"] as const
export const OperationTypeSchema = z.enum(OPERATION_TYPES)
export type OperationType = z.infer<typeof OperationTypeSchema>

export const OPERATION_RESULTS = [
  "AUTHORIZED",
  "EXECUTED",
  "DECLINED",
  "DENIED_BY_RISK",
  "THREEDS_VALIDATED",
  "THREEDS_FAILED",
  "PENDING",
  "CANCELED",
  "VOIDED",
  "REFUNDED",
  "FAILED",
] as const
export const OperationResultSchema = z.enum(OPERATION_RESULTS)
export type OperationResult = z.infer<typeof OperationResultSchema>

export const CHANNELS = ["ECOMMERCE", "POS", "BACKOFFICE"] as const
export const ChannelSchema = z.enum(CHANNELS)
export type Channel = z.infer<typeof ChannelSchema>

export const PAYMENT_METHOD_TYPES = ["CARD", "APM"] as const
export const PaymentMethodTypeSchema = z.enum(PAYMENT_METHOD_TYPES)

export const CAPTURE_TYPES = ["IMPLICIT", "EXPLICIT"] as const
export const CaptureTypeSchema = z.enum(CAPTURE_TYPES)
export type CaptureType = z.infer<typeof CaptureTypeSchema>

export const ACTION_TYPES = ["PAY", "VERIFY", "PREAUTH"] as const
export const EXEMPTIONS = ["NO_PREFERENCE", "CHALLENGE_REQUESTED"] as const
export const RECURRENCE_ACTIONS = [
  "NO_RECURRING",
  "SUBSEQUENT_PAYMENT",
  "CONTRACT_CREATION",
  "CARD_SUBSTITUTION",
] as const
export const CONTRACT_TYPES = ["MIT_UNSCHEDULED", "MIT_SCHEDULED", "CIT"] as const
/** What the shopper pays with: a card typed in, or a wallet (enabled per merchant in Nexi's back office). */
export const PAYMENT_SERVICES = ["CARDS", "GOOGLEPAY", "APPLEPAY"] as const
export type PaymentService = (typeof PAYMENT_SERVICES)[number]
/** The wallets among them, each enabled per merchant: the shopper pays with the card the wallet holds. */
export const WALLETS = ["GOOGLEPAY", "APPLEPAY"] as const satisfies readonly PaymentService[]
export type Wallet = (typeof WALLETS)[number]

const DateTimeSchema = z.string().min(1, "must be an ISO 8601 date-time")

export const AddressSchema = z.looseObject({
  name: z.string().optional(),
  street: z.string().optional(),
  additionalInfo: z.string().optional(),
  city: z.string().optional(),
  postCode: z.string().optional(),
  province: z.string().optional(),
  country: CountryAlpha3Schema.optional(),
})
export type Address = z.infer<typeof AddressSchema>

export const CardHolderAcctInfoSchema = z.looseObject({
  chAccDate: DateTimeSchema.optional(),
  chAccAgeIndicator: z.string().optional(),
  chAccChangeDate: DateTimeSchema.optional(),
  chAccChangeIndicator: z.string().optional(),
  chAccPwChangeDate: DateTimeSchema.optional(),
  chAccPwChangeIndicator: z.string().optional(),
  nbPurchaseAccount: z.number().optional(),
  destinationAddressUsageDate: DateTimeSchema.optional(),
  destinationAddressUsageIndicator: z.string().optional(),
  destinationNameIndicator: z.string().optional(),
  txnActivityDay: z.number().optional(),
  txnActivityYear: z.number().optional(),
  provisionAttemptsDay: z.number().optional(),
  suspiciousAccActivity: z.string().optional(),
  paymentAccAgeDate: DateTimeSchema.optional(),
  paymentAccIndicator: z.string().optional(),
})
export type CardHolderAcctInfo = z.infer<typeof CardHolderAcctInfoSchema>

export const MerchantRiskIndicatorSchema = z.looseObject({
  deliveryEmail: z.string().optional(),
  deliveryTimeframe: z.string().optional(),
  giftCardAmount: z.looseObject({ value: z.number().optional(), currency: CurrencyCodeSchema.optional() }).optional(),
  giftCardCount: z.number().optional(),
  preOrderDate: DateTimeSchema.optional(),
  preOrderPurchaseIndicator: z.string().optional(),
  reorderItemsIndicator: z.string().optional(),
  shipIndicator: z.string().optional(),
})
export type MerchantRiskIndicator = z.infer<typeof MerchantRiskIndicatorSchema>

export const CustomerInfoSchema = z.looseObject({
  cardHolderName: z.string().optional(),
  cardHolderEmail: z.string().optional(),
  billingAddress: AddressSchema.optional(),
  shippingAddress: AddressSchema.optional(),
  mobilePhoneCountryCode: z.string().optional(),
  mobilePhone: z.string().optional(),
  homePhone: z.string().optional(),
  workPhone: z.string().optional(),
  cardHolderAcctInfo: CardHolderAcctInfoSchema.optional(),
  merchantRiskIndicator: MerchantRiskIndicatorSchema.optional(),
})
export type CustomerInfo = z.infer<typeof CustomerInfoSchema>

export const OrderSchema = z.looseObject({
  orderId: OrderIdSchema,
  amount: MinorAmountSchema,
  currency: CurrencyCodeSchema,
  customerId: z.string().optional(),
  description: z.string().optional(),
  customField: z.string().optional(),
  customerInfo: CustomerInfoSchema.optional(),
  transactionSummary: z
    .array(
      z.looseObject({
        language: LanguageAlpha3Schema.optional(),
        summaryList: z.array(z.looseObject({ label: z.string(), value: z.string() })).optional(),
      }),
    )
    .optional(),
  installments: z
    .array(z.looseObject({ date: DateTimeSchema.optional(), amount: MinorAmountSchema.optional() }))
    .optional(),
  termsAndConditionsIds: z.array(z.string()).optional(),
})
export type Order = z.infer<typeof OrderSchema>

/** In answers the gateway may echo an order id it issued itself, so only presence is checked. */
export const OrderInAnswerSchema = OrderSchema.extend({ orderId: z.string().min(1) })

export const RecurrenceSchema = z.looseObject({
  action: z.enum(RECURRENCE_ACTIONS).optional(),
  contractId: z.string().optional(),
  contractType: z.enum(CONTRACT_TYPES).optional(),
  contractExpiryDate: DateTimeSchema.optional(),
  contractFrequency: z.string().regex(/^\d+$/, "must be a number of days, as a string").optional(),
})
export type Recurrence = z.infer<typeof RecurrenceSchema>

export const PaymentSessionSchema = z.looseObject({
  actionType: z.enum(ACTION_TYPES).optional(),
  amount: MinorAmountSchema,
  recurrence: RecurrenceSchema.optional(),
  captureType: CaptureTypeSchema.optional(),
  exemptions: z.enum(EXEMPTIONS).optional(),
  language: LanguageAlpha3Schema,
  resultUrl: z.string().optional(),
  cancelUrl: z.string().optional(),
  notificationUrl: z.string().optional(),
  paymentService: z.enum(PAYMENT_SERVICES).optional(),
})
export type PaymentSession = z.infer<typeof PaymentSessionSchema>

export const CardSchema = z.looseObject({
  pan: z.string(),
  expiryDate: z.string().regex(/^(0[1-9]|1[0-2])\d{2}$/, 'must be mmyy, for example "1230"'),
  cvv: z
    .string()
    .regex(/^\d{3,4}$/, "must be 3 or 4 digits")
    .optional(),
})
export type Card = z.infer<typeof CardSchema>

/**
 * A warning or error record. The contract lists both members, but a record missing one still
 * says something (the other member); it reads as an empty string rather than failing the answer.
 */
const CodedRecordSchema = z.looseObject({ code: z.string().default(""), description: z.string().default("") })

export const WarningSchema = CodedRecordSchema

/**
 * Read tolerantly (tolerant-reader.ts): `channel` and `paymentMethod` are informational and take
 * any string; an unknown `operationType` or `operationResult` is set aside, so the operation
 * counts as no payment, capture or refund (core/card/card-order.ts reads a result it lacks as pending),
 * and a lost write is never settled as "not made" against it (src/core/card/card-writes.ts).
 */
const OperationObjectSchema = z.looseObject({
  orderId: z.string().optional(),
  operationId: z.string().optional(),
  channel: openEnum(CHANNELS).optional(),
  operationType: OperationTypeSchema.optional(),
  operationResult: OperationResultSchema.optional(),
  operationTime: z.string().optional(),
  paymentMethod: openEnum(PAYMENT_METHOD_TYPES).optional(),
  paymentCircuit: z.string().optional(),
  paymentInstrumentInfo: z.string().optional(),
  paymentEndToEndId: z.string().optional(),
  cancelledOperationId: z.string().optional(),
  operationAmount: MinorAmountSchema.optional(),
  operationCurrency: CurrencyCodeSchema.optional(),
  customerInfo: CustomerInfoSchema.optional(),
  warnings: z.array(WarningSchema).optional(),
  paymentLinkId: z.string().optional(),
  additionalData: z
    .looseObject({
      authorizationCode: z.string().optional(),
      cardCountry: z.string().optional(),
      threeDS: z.string().optional(),
      schemaTID: z.string().optional(),
      multiCurrencyConversion: z
        .looseObject({
          amount: z.string().optional(),
          currency: z.string().optional(),
          exchangeRate: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  unrecognized: unrecognizedField,
})
export const OperationSchema = withUnknownSetAside(OperationObjectSchema, {
  operationType: OPERATION_TYPES,
  operationResult: OPERATION_RESULTS,
})
export type Operation = z.infer<typeof OperationSchema>

export const OrderStatusSchema = z.looseObject({
  order: OrderInAnswerSchema,
  authorizedAmount: MinorAmountSchema.optional(),
  capturedAmount: MinorAmountSchema.optional(),
  // Shown to staff only; the operations decide.
  lastOperationType: openEnum(OPERATION_TYPES).optional(),
  lastOperationTime: z.string().optional(),
})
export type OrderStatus = z.infer<typeof OrderStatusSchema>

export const PaymentLinkSchema = z.looseObject({
  linkId: z.string().optional(),
  amount: MinorAmountSchema.optional(),
  expirationDate: z.string().optional(),
  link: z.string().optional(),
  paidByOperationId: z.string().optional(),
})
export type PaymentLink = z.infer<typeof PaymentLinkSchema>

export const PaymentMethodSchema = z.looseObject({
  circuit: z.string(),
  methodType: openEnum(PAYMENT_METHOD_TYPES),
  imageLink: z.string().optional(),
  recurringSupported: z.boolean().optional(),
  oneClickSupported: z.boolean().optional(),
})
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>

export const ErrorRecordSchema = CodedRecordSchema
export const ErrorBodySchema = z.looseObject({ errors: z.array(ErrorRecordSchema) })
export type GatewayErrorRecord = z.infer<typeof ErrorRecordSchema>

// ---- requests ----------------------------------------------------------------------

export const HppRequestSchema = z.looseObject({
  order: OrderSchema,
  paymentSession: PaymentSessionSchema,
})
export type HppRequest = z.infer<typeof HppRequestSchema>

export const MotoRequestSchema = z.looseObject({
  order: OrderSchema,
  card: CardSchema,
  captureType: CaptureTypeSchema.optional(),
})
export type MotoRequest = z.infer<typeof MotoRequestSchema>

export const CardVerificationRequestSchema = z.looseObject({
  order: OrderSchema,
  card: CardSchema,
})
export type CardVerificationRequest = z.infer<typeof CardVerificationRequestSchema>

/** Body of captures and refunds (docs/contract/gateway.md): amount in minor units, currency, free text. */
export const PostOperationRequestSchema = z.looseObject({
  amount: MinorAmountSchema,
  currency: CurrencyCodeSchema,
  description: z.string().max(255, "must be at most 255 characters").optional(),
})
export type PostOperationRequest = z.infer<typeof PostOperationRequestSchema>

export const CancelRequestSchema = z.looseObject({
  description: z.string().max(255, "must be at most 255 characters").optional(),
})
export type CancelRequest = z.infer<typeof CancelRequestSchema>

/** Contract ids are at most 18 characters on POST /orders/mit (docs/contract/gateway.md). */
export const ContractIdSchema = z.string().min(1, "must not be empty").max(18, "must be at most 18 characters")

/** POST /orders/mit: the merchant charges a saved card's contract without the cardholder. */
export const MitRequestSchema = z.looseObject({
  order: OrderSchema,
  contractId: ContractIdSchema,
  captureType: CaptureTypeSchema.optional(),
})
export type MitRequest = z.infer<typeof MitRequestSchema>

/** A calendar date, as POST /orders/paybylink takes its expirationDate: "2026-12-31". */
export const CalendarDateSchema = z
  .string()
  // abort: a text that is not YYYY-MM-DD gets that one message, not also "not a calendar date".
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD, for example "2026-12-31"', abort: true })
  .refine((text) => {
    // Date.parse rolls 2026-02-30 over to March and gives NaN for month 13: both are refused.
    const time = Date.parse(`${text}T00:00:00Z`)
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text)
  }, "is not a calendar date")

/** POST /orders/paybylink: a hosted payment the shopper opens from a link, until expirationDate. */
export const PayByLinkRequestSchema = z.looseObject({
  order: OrderSchema,
  paymentSession: PaymentSessionSchema,
  expirationDate: CalendarDateSchema,
})
export type PayByLinkRequest = z.infer<typeof PayByLinkRequestSchema>

/**
 * POST /orders/build (XPay Build, docs/simulator.md): the card fields are the gateway's
 * iframes in the merchant's page. merchantUrl is the scheme and host of that page.
 */
export const BuildRequestSchema = z.looseObject({
  version: z.enum(["1", "2", "3"]).optional(),
  merchantUrl: z.string(),
  order: OrderSchema,
  paymentSession: PaymentSessionSchema,
})
export type BuildRequest = z.infer<typeof BuildRequestSchema>

/** Body of POST /build/finalize_payment and /build/cancel. */
export const BuildSessionRequestSchema = z.looseObject({ sessionId: z.string().min(1, "must not be empty") })
export type BuildSessionRequest = z.infer<typeof BuildSessionRequestSchema>

export const ListOrdersQuerySchema = z.object({
  fromTime: z.string().optional(),
  toTime: z.string().optional(),
  maxRecords: z.number().int().positive().optional(),
  customField: z.string().optional(),
})
export type ListOrdersQuery = z.infer<typeof ListOrdersQuerySchema>

export const ListOperationsQuerySchema = ListOrdersQuerySchema.extend({
  channel: ChannelSchema.optional(),
  operationType: OperationTypeSchema.optional(),
})
export type ListOperationsQuery = z.infer<typeof ListOperationsQuerySchema>

// ---- answers -----------------------------------------------------------------------

export const HppResponseSchema = z.looseObject({
  hostedPage: z.string().min(1),
  securityToken: z.string().min(1),
})
export type HppResponse = z.infer<typeof HppResponseSchema>

export const OperationResponseSchema = z.looseObject({ operation: OperationSchema })
export type OperationResponse = z.infer<typeof OperationResponseSchema>

export const OrderDetailsSchema = z.looseObject({
  orderStatus: OrderStatusSchema,
  operations: z.array(OperationSchema).default([]),
  paymentLinks: z.array(PaymentLinkSchema).default([]),
})
export type OrderDetails = z.infer<typeof OrderDetailsSchema>

export const OrderListSchema = z.looseObject({ orders: z.array(OrderStatusSchema) })
export type OrderList = z.infer<typeof OrderListSchema>

export const OperationListSchema = z.looseObject({ operations: z.array(OperationSchema) })
export type OperationList = z.infer<typeof OperationListSchema>

export const PostOperationResponseSchema = z.looseObject({
  operationId: z.string().min(1),
  operationTime: z.string().optional(),
})
export type PostOperationResponse = z.infer<typeof PostOperationResponseSchema>

export const PayByLinkResponseSchema = z.looseObject({
  paymentLink: PaymentLinkSchema.extend({ linkId: z.string().min(1), link: z.string().min(1) }),
  securityToken: z.string().min(1),
})
export type PayByLinkResponse = z.infer<typeof PayByLinkResponseSchema>

export const BUILD_STATES = [
  "PAYMENT_METHOD_SELECTION",
  "CARD_DATA_COLLECTION",
  "READY_FOR_PAYMENT",
  "REDIRECTED_TO_EXTERNAL_DOMAIN",
  "PAYMENT_COMPLETE",
  "GDI_VERIFICATION",
] as const
export type BuildState = (typeof BUILD_STATES)[number]

/** One iframe of a Build session: `src` is the gateway's page for that one field. */
export const BuildFieldSchema = z.looseObject({
  type: z.string().optional(),
  class: z.string().optional(),
  id: z.string().min(1),
  src: z.string().min(1),
})
export type BuildField = z.infer<typeof BuildFieldSchema>

/** Where a Build session is, with what that state carries (the fields, the shopper's next address, the outcome). */
export const BuildStateResponseSchema = z.looseObject({
  state: openEnum(BUILD_STATES),
  url: z.string().optional(),
  operation: OperationSchema.optional(),
  fieldSet: z.looseObject({ sessionId: z.string().optional(), fields: z.array(BuildFieldSchema) }).optional(),
})
export type BuildStateResponse = z.infer<typeof BuildStateResponseSchema>

/** POST /orders/build: the card fields (CARDS), or the address of the wallet's page (state and url). */
export const BuildResponseSchema = BuildStateResponseSchema.partial({ state: true }).extend({
  sessionId: z.string().min(1),
  securityToken: z.string().min(1),
  fields: z.array(BuildFieldSchema).default([]),
})
export type BuildResponse = z.infer<typeof BuildResponseSchema>

/** GET /build/cardData: what may be known of the confirmed card (no PCI data). expiringDate is MMYY. */
export const BuildCardDataSchema = z.looseObject({
  bin: z.string().optional(),
  lastFourDigits: z.string().optional(),
  expiringDate: z.string().optional(),
  circuit: z.string().optional(),
})
export type BuildCardData = z.infer<typeof BuildCardDataSchema>

/** A contract as GET /contracts/customers/{customerId} lists it; the type is read tolerantly. */
export const ContractSchema = z.looseObject({
  contractId: z.string().min(1),
  contractType: openEnum(CONTRACT_TYPES).optional(),
  contractExpiryDate: z.string().optional(),
  contractFrequency: z.string().optional(),
  paymentMethod: openEnum(PAYMENT_METHOD_TYPES).optional(),
  paymentCircuit: z.string().optional(),
  paymentInstrumentInfo: z.string().optional(),
})
export type Contract = z.infer<typeof ContractSchema>

export const CustomerContractsSchema = z.looseObject({
  customerId: z.string(),
  contracts: z.array(ContractSchema),
})
export type CustomerContracts = z.infer<typeof CustomerContractsSchema>

export const PaymentMethodListSchema = z.looseObject({ paymentMethods: z.array(PaymentMethodSchema) })
export type PaymentMethodList = z.infer<typeof PaymentMethodListSchema>

/** Notification the gateway POSTs to notificationUrl (docs/contract/gateway.md). */
export const NotificationSchema = z.looseObject({
  eventId: z.string().min(1),
  eventTime: z.union([z.string(), z.number()]),
  securityToken: z.string().min(1),
  operation: OperationSchema,
})
export type Notification = z.infer<typeof NotificationSchema>
