/**
 * What the simulator keeps of one transaction, as a zod schema so that a state file is
 * checked when it is loaded instead of failing later in the middle of a request.
 */
import { z } from "zod"
import {
  AccountStateSchema,
  AmountSchema,
  ApmMethodSchema,
  ApmOrderSchema,
  ConsumerSchema,
  Ecr2NaaSchema,
  KeyValueSchema,
  ReceiptSchema,
  TransactionStateSchema,
  TransactionTypeSchema,
  TransitionEventSchema,
} from "../../apm/schemas"

const RecordedTransitionSchema = z.object({
  timeStamp: z.string(),
  /** Absent on the CREATE transition: the transaction did not exist before. */
  from: TransactionStateSchema.optional(),
  to: TransactionStateSchema,
  event: TransitionEventSchema,
})

export const TransactionRecordSchema = z.object({
  transactionId: z.number().int().positive(),
  type: TransactionTypeSchema,
  /** Consumer key of the credentials that created it; other credentials cannot see it. */
  owner: z.string(),
  merchant: z.object({ merchantId: z.string() }),
  method: ApmMethodSchema,
  amount: AmountSchema,
  consumer: ConsumerSchema,
  order: ApmOrderSchema.optional(),
  ecr2Naa: Ecr2NaaSchema.optional(),
  additionalProperties: z.array(KeyValueSchema).optional(),
  batch: z.number().int().optional(),
  terminalReference: z.string().optional(),
  /** For refunds and reversals: the transactionId of the payment they act on. */
  originalReference: z.string().optional(),
  message: z.string().optional(),
  trigger: z.enum(["0", "2"]),
  /** Creation time. */
  timeStamp: z.string(),
  state: TransactionStateSchema,
  accountState: AccountStateSchema.optional(),
  transitions: z.array(RecordedTransitionSchema),
  receipt: ReceiptSchema.optional(),
  /** What the scheme said about the last change, answered as naa2Ecr.additionalInfo. */
  additionalInfo: z.string(),
  /** The consumerId rules act on the merchant's first status read, so it must be remembered. */
  statusRead: z.boolean(),
})
export type TransactionRecord = z.infer<typeof TransactionRecordSchema>

/** What a request decides about a new transaction; the lifecycle fills in the rest. */
export type NewTransaction = Omit<
  TransactionRecord,
  "transactionId" | "timeStamp" | "state" | "accountState" | "transitions" | "receipt" | "additionalInfo" | "statusRead"
>
