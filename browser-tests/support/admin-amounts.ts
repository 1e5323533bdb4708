/**
 * The amounts of one card payment as each party holds them, so a test can check after every
 * step that they agree. All in minor units (EUR cents, as the gateway writes them) so the
 * comparisons are exact strings:
 * - the gateway, read directly with the demo's API key through the plugin's GatewayClient,
 *   not through the admin route the widget uses;
 * - Medusa's payment record (its captures and refunds), through Medusa's admin API with the
 *   signed-in browser's session.
 * What the widget shows is read in admin-dashboard.ts.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { APIRequestContext } from "playwright-core"
import type { RunningDemo } from "../../scripts/demo/start-demo"
import { createGatewayClient } from "../../src/gateway/http-gateway-client"
import type { Operation } from "../../src/gateway/schemas"
import { toMinorUnits } from "../../src/money/amount"
import { GATEWAY_BASE_PATH } from "../../src/simulator/options"

export interface GatewayAmounts {
  authorized: string
  captured: string
  /** Executed refunds; a CANCEL of a capture lowers `captured` instead. */
  refunded: string
}

export interface MedusaAmounts {
  captured: string
  refunded: string
}

export interface GatewayView {
  amounts(gatewayOrderId: string): Promise<GatewayAmounts>
  operations(gatewayOrderId: string): Promise<Operation[]>
}

/**
 * The demo generates its gateway API key once per data directory and keeps it in
 * secrets.json there (scripts/demo/secrets.js); the store and the simulator share it.
 */
function demoGatewayApiKey(dataDir: string): string {
  return JSON.parse(readFileSync(join(dataDir, "secrets.json"), "utf8")).gatewayApiKey
}

function sumOf(amounts: string[]): string {
  return amounts.reduce((sum, amount) => sum + BigInt(amount), 0n).toString()
}

export function gatewayView(demo: RunningDemo, dataDir: string): GatewayView {
  const client = createGatewayClient({
    apiKey: demoGatewayApiKey(dataDir),
    environment: `${demo.urls.simulator}${GATEWAY_BASE_PATH}`,
  })
  return {
    async amounts(gatewayOrderId) {
      const { orderStatus, operations } = await client.getOrder(gatewayOrderId)
      const refunds = operations.filter(
        (operation) => operation.operationType === "REFUND" && operation.operationResult === "REFUNDED",
      )
      return {
        authorized: orderStatus.authorizedAmount ?? "0",
        captured: orderStatus.capturedAmount ?? "0",
        refunded: sumOf(refunds.map((refund) => refund.operationAmount ?? "0")),
      }
    },
    async operations(gatewayOrderId) {
      return (await client.getOrder(gatewayOrderId)).operations
    },
  }
}

interface MedusaMoneyRecord {
  raw_amount: { value: string }
}

interface MedusaPaymentRecord {
  currency_code: string
  captures: MedusaMoneyRecord[]
  refunds: Array<MedusaMoneyRecord & { note: string | null }>
}

/** Medusa's payment with its captures and refunds, read with the signed-in browser's session. */
async function medusaPayment(
  request: APIRequestContext,
  backendUrl: string,
  paymentId: string,
): Promise<MedusaPaymentRecord> {
  const answer = await request.get(
    `${backendUrl}/admin/payments/${paymentId}?fields=id,currency_code,*captures,*refunds`,
  )
  if (!answer.ok())
    throw new Error(`GET /admin/payments/${paymentId} answered ${answer.status()}: ${await answer.text()}`)
  return ((await answer.json()) as { payment: MedusaPaymentRecord }).payment
}

/** Medusa's captures and refunds of a payment, summed from their exact raw amounts. */
export async function medusaAmounts(
  request: APIRequestContext,
  backendUrl: string,
  paymentId: string,
): Promise<MedusaAmounts> {
  const payment = await medusaPayment(request, backendUrl, paymentId)
  const minor = (records: MedusaMoneyRecord[]) =>
    sumOf(records.map((record) => toMinorUnits(record.raw_amount.value, payment.currency_code)))
  return { captured: minor(payment.captures), refunded: minor(payment.refunds) }
}

/** Medusa's refunds of a payment, each in minor units with the note staff gave. */
export async function medusaRefunds(
  request: APIRequestContext,
  backendUrl: string,
  paymentId: string,
): Promise<Array<{ amount: string; note: string | null }>> {
  const payment = await medusaPayment(request, backendUrl, paymentId)
  return payment.refunds.map((refund) => ({
    amount: toMinorUnits(refund.raw_amount.value, payment.currency_code),
    note: refund.note,
  }))
}
