import { MedusaError } from "@medusajs/framework/utils"
import { TransactionRejectedError } from "../../apm/errors"
import {
  AuthenticationError,
  GatewayUnavailableError,
  InvalidRequestError,
  NexiError,
  NotFoundError,
  OutcomeUnknownError,
  UnexpectedResponseError,
} from "../../http/errors"
import { InvalidAmountError } from "../../money/amount"
import { UnknownCurrencyError } from "../../money/currencies"
import { toMedusaError } from "../medusa-errors"

const details = [
  { code: "GW0001", description: "amount is invalid" },
  { code: "", description: "order already paid" },
]

describe("toMedusaError", () => {
  it("passes a MedusaError through unchanged", () => {
    const error = new MedusaError(MedusaError.Types.NOT_ALLOWED, "already")
    expect(toMedusaError(error, "capture the payment")).toBe(error)
  })

  it("maps amount and currency errors to INVALID_DATA", () => {
    const amount = toMedusaError(new InvalidAmountError("amount", "must not be negative"), "capture the payment")
    expect(amount.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(amount.message).toBe("Could not capture the payment: amount: must not be negative")
    const currency = toMedusaError(new UnknownCurrencyError("XYZ"), "refund the payment")
    expect(currency.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(currency.message).toBe(
      'Could not refund the payment: currency_code: "XYZ" is not an ISO 4217 currency this plugin knows',
    )
  })

  it("maps any other error or thrown value to UNEXPECTED_STATE with its message", () => {
    const error = toMedusaError(new TypeError("boom"), "read the payment")
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toBe("Could not read the payment: boom")
    expect(toMedusaError("plain text", "read the payment").message).toBe("Could not read the payment: plain text")
  })

  it("maps AuthenticationError to UNAUTHORIZED, naming the service", () => {
    const gateway = toMedusaError(new AuthenticationError("gateway", "401"), "capture the payment")
    expect(gateway.type).toBe(MedusaError.Types.UNAUTHORIZED)
    expect(gateway.message).toBe(
      "Could not capture the payment: The Nexi gateway refused the credentials. Check the API key or consumer key and secret in the provider options.",
    )
    expect(toMedusaError(new AuthenticationError("apm", "401"), "capture the payment").message).toContain(
      "The mobile payment service refused the credentials.",
    )
  })

  it("maps InvalidRequestError to NOT_ALLOWED, with its details", () => {
    const error = toMedusaError(new InvalidRequestError("gateway", "400", { details }), "refund the payment")
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toBe(
      "Could not refund the payment: The Nexi gateway refused the request (GW0001: amount is invalid; order already paid).",
    )
  })

  it("renders no details part when there are none", () => {
    expect(toMedusaError(new InvalidRequestError("apm", "400"), "refund the payment").message).toBe(
      "Could not refund the payment: The mobile payment service refused the request.",
    )
  })

  it("maps a TransactionRejectedError like the InvalidRequestError it is", () => {
    const envelope = {} as ConstructorParameters<typeof TransactionRejectedError>[1]
    const error = toMedusaError(
      new TransactionRejectedError("rejected", envelope, { details: [{ code: "", description: "declined" }] }),
      "pay",
    )
    expect(error.type).toBe(MedusaError.Types.NOT_ALLOWED)
    expect(error.message).toBe("Could not pay: The mobile payment service refused the request (declined).")
  })

  it("maps NotFoundError to NOT_FOUND, with its details", () => {
    const error = toMedusaError(
      new NotFoundError("gateway", "404", { details: [{ code: "GW0404", description: "no order" }] }),
      "read the payment",
    )
    expect(error.type).toBe(MedusaError.Types.NOT_FOUND)
    expect(error.message).toBe(
      "Could not read the payment: The Nexi gateway does not know this payment (GW0404: no order).",
    )
    expect(toMedusaError(new NotFoundError("apm", "404"), "read the payment").message).toBe(
      "Could not read the payment: The mobile payment service does not know this payment.",
    )
  })

  it("maps OutcomeUnknownError to UNEXPECTED_STATE, telling not to retry", () => {
    const error = toMedusaError(new OutcomeUnknownError("gateway", "timeout"), "capture the payment")
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toBe(
      "Could not capture the payment: The Nexi gateway did not answer in time and the outcome is unknown. Do not try again until the payment has been read again (Sync from gateway, or the reconciliation job within minutes).",
    )
  })

  it("maps GatewayUnavailableError to UNEXPECTED_STATE, saying nothing was changed", () => {
    const error = toMedusaError(new GatewayUnavailableError("apm", "503"), "read the payment")
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toBe(
      "Could not read the payment: The mobile payment service is unavailable. Nothing was changed; try again shortly.",
    )
  })

  it("maps an unreachable address to a configuration message naming the host and the option, never 'try again shortly'", () => {
    const unreachable = { host: "sandbox.invalid", problem: "the host name does not resolve", option: "environment" }
    const error = toMedusaError(
      new GatewayUnavailableError("gateway", "ENOTFOUND", { unreachable }),
      "start the payment",
    )
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toBe(
      'Could not start the payment: The Nexi gateway at sandbox.invalid cannot be reached: the host name does not resolve. Nothing was changed. This is a configuration problem: check the provider\'s `environment` option (the simulator\'s URL offline, "sandbox" or "production" with Nexi\'s keys).',
    )
  })

  it("maps UnexpectedResponseError to UNEXPECTED_STATE with its message", () => {
    const error = toMedusaError(
      new UnexpectedResponseError("gateway", "orderStatus.order.amount: expected a string"),
      "read the payment",
    )
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toBe(
      "Could not read the payment: The Nexi gateway answered in an unexpected form: orderStatus.order.amount: expected a string",
    )
  })

  it("maps a NexiError of another kind to UNEXPECTED_STATE with its message", () => {
    class OtherError extends NexiError {
      readonly kind = "other"
    }
    const error = toMedusaError(new OtherError("gateway", "something else"), "read the payment")
    expect(error.type).toBe(MedusaError.Types.UNEXPECTED_STATE)
    expect(error.message).toBe("Could not read the payment: something else")
  })
})
