/**
 * Gateway records as the simulator (and the real gateway, per docs/contract/gateway.md) answers
 * GET /orders/{orderId}, captured from real runs and trimmed to one order each.
 */
import type { Operation, OrderDetails } from "../../gateway/schemas"

const card = {
  paymentMethod: "CARD",
  paymentCircuit: "VISA",
  paymentInstrumentInfo: "***4549",
  operationCurrency: "EUR",
} as const

function operation(
  fields: Partial<Operation> & Pick<Operation, "operationId" | "operationType" | "operationResult" | "operationTime">,
): Operation {
  return {
    orderId: "TESTMWPPU0HS",
    channel: "BACKOFFICE",
    ...card,
    cancelledOperationId: "",
    additionalData: { cardCountry: "ITA" },
    ...fields,
  }
}

/**
 * Hosted payment with a 3DS challenge (EXPLICIT), a partial capture of 25.50 cancelled the
 * same day, a full capture of 39.98, then a refund of 10.00.
 */
export function capturedCancelledRecapturedRefunded(): OrderDetails {
  return {
    orderStatus: {
      order: { orderId: "TESTMWPPU0HS", amount: "3998", currency: "EUR", customField: "payses_1" },
      authorizedAmount: "3998",
      capturedAmount: "3998",
      lastOperationType: "REFUND",
      lastOperationTime: "2026-11-21T01:14:50.159Z",
    },
    operations: [
      operation({
        operationId: "867916744301998",
        channel: "ECOMMERCE",
        operationType: "AUTHORIZATION",
        operationResult: "THREEDS_VALIDATED",
        operationTime: "2026-11-21T01:14:50.071Z",
        operationAmount: "3998",
        additionalData: { cardCountry: "ITA", threeDS: "CHALLENGE" },
      }),
      operation({
        operationId: "678105030543057",
        channel: "ECOMMERCE",
        operationType: "AUTHORIZATION",
        operationResult: "AUTHORIZED",
        operationTime: "2026-11-21T01:14:50.071Z",
        operationAmount: "3998",
        additionalData: { authorizationCode: "383832", cardCountry: "ITA", threeDS: "CHALLENGE" },
      }),
      operation({
        operationId: "908387210732492",
        operationType: "CAPTURE",
        operationResult: "EXECUTED",
        operationTime: "2026-11-21T01:14:50.127Z",
        operationAmount: "2550",
      }),
      operation({
        operationId: "427882645072667",
        operationType: "CANCEL",
        operationResult: "EXECUTED",
        operationTime: "2026-11-21T01:14:50.139Z",
        cancelledOperationId: "908387210732492",
        operationAmount: "2550",
      }),
      operation({
        operationId: "198378169041436",
        operationType: "CAPTURE",
        operationResult: "EXECUTED",
        operationTime: "2026-11-21T01:14:50.157Z",
        operationAmount: "3998",
      }),
      operation({
        operationId: "265008783561666",
        operationType: "REFUND",
        operationResult: "REFUNDED",
        operationTime: "2026-11-21T01:14:50.159Z",
        cancelledOperationId: "198378169041436",
        operationAmount: "1000",
      }),
    ],
    paymentLinks: [],
  }
}

/** A MOTO payment in yen (no minor unit): one AUTHORIZATION with the gateway's 3DS warning. */
export function motoAuthorizedJpy(): OrderDetails {
  return {
    orderStatus: {
      order: { orderId: "TESTMWPPU0HSM", amount: "500", currency: "JPY" },
      authorizedAmount: "500",
      capturedAmount: "0",
      lastOperationType: "AUTHORIZATION",
      lastOperationTime: "2026-11-21T01:14:50.184Z",
    },
    operations: [
      {
        orderId: "TESTMWPPU0HSM",
        operationId: "283050910406843",
        channel: "BACKOFFICE",
        operationType: "AUTHORIZATION",
        operationResult: "AUTHORIZED",
        operationTime: "2026-11-21T01:14:50.184Z",
        paymentMethod: "CARD",
        paymentCircuit: "MC",
        paymentInstrumentInfo: "***2903",
        cancelledOperationId: "",
        operationAmount: "500",
        operationCurrency: "JPY",
        warnings: [
          { code: "TRA001", description: "3-D Secure not performed: card data entered by the merchant (MOTO)" },
        ],
        additionalData: { authorizationCode: "135843", cardCountry: "ITA" },
      },
    ],
    paymentLinks: [],
  }
}

/** A declined hosted payment: 3DS passed, then the issuer said no. Nothing authorized. */
export function declined(): OrderDetails {
  return {
    orderStatus: {
      order: { orderId: "DECL0001", amount: "1999", currency: "EUR" },
      authorizedAmount: "0",
      capturedAmount: "0",
      lastOperationType: "AUTHORIZATION",
      lastOperationTime: "2026-11-21T09:00:01.000Z",
    },
    operations: [
      {
        orderId: "DECL0001",
        operationId: "100000000000001",
        channel: "ECOMMERCE",
        operationType: "AUTHORIZATION",
        operationResult: "THREEDS_VALIDATED",
        operationTime: "2026-11-21T09:00:00.000Z",
        paymentCircuit: "MC",
        paymentInstrumentInfo: "***8729",
        operationAmount: "1999",
        operationCurrency: "EUR",
        additionalData: { threeDS: "FRICTIONLESS" },
      },
      {
        orderId: "DECL0001",
        operationId: "100000000000002",
        channel: "ECOMMERCE",
        operationType: "AUTHORIZATION",
        operationResult: "DECLINED",
        operationTime: "2026-11-21T09:00:01.000Z",
        paymentCircuit: "MC",
        paymentInstrumentInfo: "***8729",
        operationAmount: "1999",
        operationCurrency: "EUR",
      },
    ],
    paymentLinks: [],
  }
}
