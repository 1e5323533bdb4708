/**
 * Checks of an initialize request that need nothing but the request itself: the schema
 * of docs/contract/apm.md, the amount sums, the scheme's currencies, order lines, and the fields
 * refunds and reversals cannot do without. Checks against stored transactions live in
 * original-reference.ts. The VAT split is the merchant's business: only sums are checked.
 */
import { type InitializeRequest, InitializeRequestSchema, type TransactionType } from "../../apm/schemas"
import { type Fault, fault, faultsFromZod } from "./faults"
import { SCHEMES, schemeAccepts } from "./schemes"

export type Validation = { request: InitializeRequest } | { faults: Fault[] }

export function validateInitializeRequest(type: TransactionType, body: unknown): Validation {
  const parsed = InitializeRequestSchema.safeParse(body)
  if (!parsed.success) return { faults: faultsFromZod(parsed.error) }
  const request = parsed.data
  const faults = [
    ...amountFaults(request),
    ...currencyFaults(request),
    ...orderLineFaults(request),
    ...requiredReferenceFaults(type, request),
  ]
  return faults.length > 0 ? { faults } : { request }
}

function amountFaults({ purchaseAmount }: InitializeRequest): Fault[] {
  const { nominalAmount, vatAmount, totalAmount } = purchaseAmount
  const faults: Fault[] = []
  if (totalAmount !== nominalAmount + vatAmount) {
    faults.push(
      fault("purchaseAmount.totalAmount must equal purchaseAmount.nominalAmount + purchaseAmount.vatAmount", {
        field: "purchaseAmount.totalAmount",
        totalAmount,
        nominalAmount,
        vatAmount,
        expected: nominalAmount + vatAmount,
      }),
    )
  }
  if (totalAmount <= 0) {
    faults.push(
      fault("purchaseAmount.totalAmount must be greater than zero", {
        field: "purchaseAmount.totalAmount",
        totalAmount,
      }),
    )
  }
  return faults
}

function currencyFaults({ method, purchaseAmount: { currencyCode } }: InitializeRequest): Fault[] {
  if (schemeAccepts(method, currencyCode)) return []
  const accepted = SCHEMES[method].currencies.join(", ")
  return [
    fault(`Currency ${currencyCode} is not accepted by ${method} (accepted: ${accepted})`, {
      field: "purchaseAmount.currencyCode",
      currencyCode,
      method,
      accepted,
    }),
  ]
}

function orderLineFaults({ ecr2Naa }: InitializeRequest): Fault[] {
  const items = ecr2Naa?.order?.items ?? []
  return items.flatMap((item, index) => {
    const field = `ecr2Naa.order.items.${index}`
    const faults: Fault[] = []
    if (item.quantity !== undefined && item.quantity <= 0) {
      faults.push(fault(`${field}.quantity must be positive`, { field: `${field}.quantity`, quantity: item.quantity }))
    }
    const { grossTotalAmount, netTotalAmount, taxAmount } = item
    // A line may leave the totals out; when all three are given they must add up.
    if (
      grossTotalAmount !== undefined &&
      netTotalAmount !== undefined &&
      taxAmount !== undefined &&
      grossTotalAmount !== netTotalAmount + taxAmount
    ) {
      faults.push(
        fault(`${field}.grossTotalAmount must equal netTotalAmount + taxAmount`, {
          field: `${field}.grossTotalAmount`,
          grossTotalAmount,
          netTotalAmount,
          taxAmount,
          expected: netTotalAmount + taxAmount,
        }),
      )
    }
    return faults
  })
}

const REQUIRED_REFERENCES: Record<TransactionType, readonly ("originalReference" | "terminalReference")[]> = {
  payment: [],
  refund: ["originalReference"],
  reversal: ["terminalReference", "originalReference"],
}

function requiredReferenceFaults(type: TransactionType, request: InitializeRequest): Fault[] {
  return REQUIRED_REFERENCES[type]
    .filter((field) => !request[field]?.trim())
    .map((field) => fault(`${field} is required for a ${type}`, { field }))
}
