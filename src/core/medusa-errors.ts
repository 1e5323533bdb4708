/**
 * Turns the clients' typed errors into MedusaErrors whose message a merchant can act on.
 * Medusa shows the message in the admin and rolls back its own row when a provider throws.
 */
import { MedusaError } from "@medusajs/framework/utils"
import {
  AuthenticationError,
  GatewayUnavailableError,
  InvalidRequestError,
  NexiError,
  NotFoundError,
  OutcomeUnknownError,
  UnexpectedResponseError,
} from "../http/errors"
import { InvalidAmountError, toMinorUnits } from "../money/amount"
import { UnknownCurrencyError } from "../money/currencies"

/** A request Medusa answers 400: `message` names the field and what is wrong with it. */
export function invalidData(message: string): MedusaError {
  return new MedusaError(MedusaError.Types.INVALID_DATA, message)
}

function gatewayName(error: NexiError): string {
  return error.service === "apm" ? "The mobile payment service" : "The Nexi gateway"
}

function detailText(error: NexiError): string {
  const details = error.details.map((detail) =>
    detail.code ? `${detail.code}: ${detail.description}` : detail.description,
  )
  return details.length ? ` (${details.join("; ")})` : ""
}

export function toMedusaError(error: unknown, action: string): MedusaError {
  if (error instanceof MedusaError) return error
  if (error instanceof UnknownCurrencyError || error instanceof InvalidAmountError) {
    return new MedusaError(MedusaError.Types.INVALID_DATA, `Could not ${action}: ${error.message}`)
  }
  if (!(error instanceof NexiError)) {
    const message = error instanceof Error ? error.message : String(error)
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Could not ${action}: ${message}`)
  }
  const name = gatewayName(error)
  if (error instanceof AuthenticationError) {
    return new MedusaError(
      MedusaError.Types.UNAUTHORIZED,
      `Could not ${action}: ${name} refused the credentials. Check the API key or consumer key and secret in the provider options.`,
    )
  }
  if (error instanceof InvalidRequestError) {
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `Could not ${action}: ${name} refused the request${detailText(error)}.`,
    )
  }
  if (error instanceof NotFoundError) {
    return new MedusaError(
      MedusaError.Types.NOT_FOUND,
      `Could not ${action}: ${name} does not know this payment${detailText(error)}.`,
    )
  }
  if (error instanceof OutcomeUnknownError) {
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: ${name} did not answer in time and the outcome is unknown. Do not try again until the payment has been read again (Sync from gateway, or the reconciliation job within minutes).`,
    )
  }
  if (error instanceof GatewayUnavailableError && error.unreachable) {
    const { host, problem, option } = error.unreachable
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: ${name} at ${host} cannot be reached: ${problem}. Nothing was changed. This is a configuration problem: check the provider's \`${option}\` option (the simulator's URL offline, "sandbox" or "production" with Nexi's keys).`,
    )
  }
  if (error instanceof GatewayUnavailableError) {
    // Money writes settle their outcome from the gateway's record before they get here
    // (send-once.ts); what reaches this line is a read, or a write that moves no money.
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: ${name} is unavailable. Nothing was changed; try again shortly.`,
    )
  }
  if (error instanceof UnexpectedResponseError) {
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Could not ${action}: ${name} answered in an unexpected form: ${error.message}`,
    )
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Could not ${action}: ${error.message}`)
}

/** Runs a gateway call; its typed errors become MedusaErrors saying what could not be done. */
export async function fromGateway<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw toMedusaError(error, action)
  }
}

/** A field of the session data the provider needs, or an error naming the provider it was not started with. */
export function requireField<T>(value: T | undefined | null, field: string, action: string, providerLabel: string): T {
  if (value === undefined || value === null || value === "") {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Could not ${action}: the payment has no ${field}; it was not started with the ${providerLabel} provider.`,
    )
  }
  return value
}

/** Medusa's amount in the currency's minor units, or a MedusaError saying why `action` cannot take it. */
export function minorUnitsFor(amount: unknown, currency: string, action: string): string {
  try {
    return toMinorUnits(amount as never, currency)
  } catch (error) {
    throw toMedusaError(error, action)
  }
}
