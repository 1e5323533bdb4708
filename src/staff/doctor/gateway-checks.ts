/**
 * The doctor's checks that ask the gateways: the API key, the region currencies against the
 * payment methods, the mobile payment credentials, the clock, and the wallets against the
 * payment methods.
 */

import { WALLET_NAMES } from "../../core/card/wallet-choice"
import { resolveGatewayBaseUrl } from "../../gateway/environment"
import { type PaymentMethod, WALLETS, type Wallet } from "../../gateway/schemas"
import {
  AuthenticationError,
  GatewayUnavailableError,
  NexiError,
  NotFoundError,
  UnexpectedResponseError,
} from "../../http/errors"
import { isKnownCurrency } from "../../money/currencies"
import { type DoctorCheck, type Finding, fail, pass, warn } from "./check"

const KEY_FIX =
  "Copy the API key of this terminal from Nexi's back office into the provider's apiKey option (NEXI_API_KEY). Sandbox and production keys differ: the key must belong to the environment configured."

function describeGatewayFailure(error: unknown, url: string): Finding {
  if (error instanceof AuthenticationError) {
    return fail(`the API key is refused; GET ${url} answered 401.`, KEY_FIX)
  }
  if (error instanceof GatewayUnavailableError && error.status === undefined) {
    return fail(
      `the gateway is unreachable at ${url}: ${error.message}`,
      "Check the environment option (sandbox, production or the base URL of your deployment) and that this machine can open outgoing HTTPS connections to it (firewall, proxy, DNS).",
    )
  }
  if (error instanceof GatewayUnavailableError) {
    return fail(
      `GET ${url} answered ${error.status}: the gateway is failing.`,
      "Try again later; if it lasts, ask Nexi's support.",
    )
  }
  if (error instanceof UnexpectedResponseError || error instanceof NexiError) {
    const status = error.status === undefined ? "an answer" : `${error.status}`
    return fail(
      `GET ${url} answered ${status} that is not the gateway's payment methods list: ${error.message}`,
      "Set environment to sandbox, production, or a base URL ending in the version segment (…/api/phoenix-0.0/psp/api/v1).",
    )
  }
  return fail(`GET ${url} failed: ${(error as Error)?.message ?? String(error)}`, "Check the environment option.")
}

/** Check 1: the gateway accepts the API key (GET /payment_methods answers 200). */
export const apiKeyCheck: DoctorCheck = {
  id: "api-key",
  title: "API key",
  blocking: true,
  async run({ options, paymentMethods }) {
    const url = `${resolveGatewayBaseUrl(options.environment)}/payment_methods`
    const read = await paymentMethods()
    if (!read.ok) return describeGatewayFailure(read.error, url)
    const count = read.list.paymentMethods.length
    return pass(
      `The gateway accepts the API key: GET ${url} answered 200 with ${count} payment method${count === 1 ? "" : "s"}.`,
    )
  },
}

/** Field names under which a gateway could list a method's currencies; the contract names none. */
const CURRENCY_FIELDS = ["currencies", "supportedCurrencies", "currencyList", "currency"]

/** The currencies a payment method lists, or undefined when it says nothing about them. */
export function currenciesOfMethod(method: PaymentMethod): string[] | undefined {
  const record = method as Record<string, unknown>
  for (const field of CURRENCY_FIELDS) {
    const value = record[field]
    if (typeof value === "string" && value !== "") return [value.toUpperCase()]
    if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      return value.map((item) => item.toUpperCase())
  }
  return undefined
}

/**
 * Check 5: every currency the store's regions sell in is one the plugin converts to minor units
 * (src/money/currencies.ts refuses what it does not know rather than guess) and, where the
 * gateway's payment methods say per currency what they accept, one the gateway takes.
 */
export const currenciesCheck: DoctorCheck = {
  id: "currencies",
  title: "Region currencies",
  blocking: true,
  async run({ currencies, paymentMethods }) {
    if (currencies === undefined || currencies.length === 0) {
      return warn(
        "No region currencies were given, so none was checked.",
        "Pass each currency the store sells in (--currency EUR, repeatable, or NEXI_CURRENCIES=EUR,USD), or run the check from the admin (Settings > Nexi), which reads the regions.",
      )
    }
    const codes = [...new Set(currencies.map((code) => code.toUpperCase()))].sort()
    const unknown = codes.filter((code) => !isKnownCurrency(code))
    const read = await paymentMethods()
    const cardMethods = read.ok ? read.list.paymentMethods.filter((method) => method.methodType === "CARD") : []
    const listed = cardMethods.map(currenciesOfMethod).filter((list): list is string[] => list !== undefined)
    const unlisted =
      listed.length === 0
        ? []
        : codes.filter((code) => !unknown.includes(code) && !listed.some((list) => list.includes(code)))
    const problems = [
      ...unknown.map((code) => `${code} is not an ISO 4217 currency the plugin converts to minor units`),
      ...unlisted.map((code) => `the gateway lists no card payment method for ${code}`),
    ]
    const scope = !read.ok
      ? "The payment methods could not be read, so only the conversion was checked."
      : listed.length === 0
        ? "The gateway's payment methods carry no per-currency data, so only the conversion was checked."
        : "Checked against the currencies the gateway's card methods list."
    if (problems.length > 0) {
      return fail(
        `${problems.join("; ")}. ${scope}`,
        "Remove the currency from the region, or ask Nexi to enable it on the terminal; a currency the plugin does not know cannot be charged at all.",
      )
    }
    return pass(`${codes.join(", ")}: every region currency converts to minor units. ${scope}`)
  },
}

/** An int64 id far above any the service issues; its status read finds nothing. */
const PROBE_TRANSACTION_ID = "999999999999999999"

/**
 * Check 6: the alternative-payment service accepts the consumer key and secret. A status read of
 * a transaction that cannot exist answers 404 once the credentials are accepted and 401 when they
 * are not, and opens nothing. The client is told the 404 is expected, so a passing check logs
 * no warning about a missing transaction.
 */
export const apmCredentialsCheck: DoctorCheck = {
  id: "apm-credentials",
  title: "Mobile payment credentials",
  blocking: true,
  async run({ options, clients }) {
    if (!options.apm || !clients.apm) return pass("apm is not configured: mobile payments are off, nothing to check.")
    const url = `${options.apm.environment.replace(/\/+$/, "")}/ms/aapay/v2/transaction/${PROBE_TRANSACTION_ID}`
    try {
      await clients.apm.getTransaction(PROBE_TRANSACTION_ID, undefined, { notFoundExpected: true })
      return pass(`The service accepts the consumer key and secret (GET ${url} answered 200).`)
    } catch (error) {
      if (error instanceof NotFoundError) {
        return pass(
          `The service accepts the consumer key and secret: a status read of an unknown transaction (GET ${url}) answered 404.`,
        )
      }
      if (error instanceof AuthenticationError) {
        return fail(
          `the consumer key and secret are refused; GET ${url} answered ${error.status ?? 401}.`,
          "Copy apm.consumerKey and apm.consumerSecret from the credentials Nexi issued for this merchant (apm.merchantId) and environment.",
        )
      }
      if (error instanceof GatewayUnavailableError && error.status === undefined) {
        return fail(
          `the service is unreachable at ${url}: ${error.message}`,
          "Check apm.environment (the service's base URL) and outgoing HTTPS from this machine.",
        )
      }
      return fail(
        `GET ${url} failed: ${(error as Error).message}`,
        "Check that apm.environment is the service's base URL.",
      )
    }
  },
}

const MAX_SKEW_SECONDS = 60

/**
 * Check 7: the local clock against the gateway's. Order and operation lookups name time windows,
 * and the job decides from timestamps what is old enough to re-read; a clock minutes off makes
 * both miss. The clients keep no headers, so this is a plain request of the base URL for its
 * Date header; the API key goes in the header the gateway expects and is never written anywhere.
 */
export const clockCheck: DoctorCheck = {
  id: "clock",
  title: "Clock",
  blocking: false,
  async run({ options, now, fetch }) {
    const url = resolveGatewayBaseUrl(options.environment)
    let date: string | null
    const sent = now()
    let received: number
    try {
      const answer = await fetch(url, {
        method: "GET",
        headers: { "X-API-KEY": options.apiKey },
        signal: AbortSignal.timeout(options.timeoutMs),
      })
      received = now()
      date = answer.headers.get("date")
      await answer.body?.cancel()
    } catch (error) {
      return warn(
        `Could not read the gateway's time from ${url}: ${(error as Error).message}.`,
        "Check that the gateway is reachable (see the API key check).",
      )
    }
    const gatewayTime = date === null ? Number.NaN : Date.parse(date)
    if (Number.isNaN(gatewayTime)) {
      return warn(`${url} answered without a Date header, so the clocks could not be compared.`)
    }
    // The Date header has whole seconds: compare with the middle of the exchange, half a second on.
    const skewSeconds = Math.round(((sent + received) / 2 - (gatewayTime + 500)) / 1000)
    const direction = skewSeconds > 0 ? "ahead of" : "behind"
    if (Math.abs(skewSeconds) > MAX_SKEW_SECONDS) {
      return warn(
        `The local clock is ${Math.abs(skewSeconds)} s ${direction} the gateway's (Date: ${date}); more than ${MAX_SKEW_SECONDS} s skews order lookups and the job's timing.`,
        "Synchronise this machine's clock (NTP: systemd-timesyncd, chrony, or the host's time service).",
      )
    }
    return pass(`The local clock is within ${Math.max(Math.abs(skewSeconds), 1)} s of the gateway's (Date: ${date}).`)
  },
}

function walletNames(wallets: readonly Wallet[]): string {
  return wallets.map((wallet) => `${WALLET_NAMES[wallet]} (${wallet})`).join(" and ")
}

/**
 * Check 9: the wallets the `wallets` option offers are listed among the gateway's payment
 * methods for this merchant (GET /payment_methods, circuits GOOGLEPAY and APPLEPAY), which is how
 * the gateway tells what Nexi enabled. The options' schema has refused any other value already.
 * A warning, not a block: that the real listing names the wallets by these circuits is the
 * public record's, not checked against Nexi's sandbox.
 */
export const walletsCheck: DoctorCheck = {
  id: "wallets",
  title: "Google Pay and Apple Pay",
  blocking: false,
  async run({ options, paymentMethods }) {
    const offered = options.wallets
    const read = await paymentMethods()
    const listed = read.ok
      ? WALLETS.filter((wallet) => read.list.paymentMethods.some((method) => method.circuit === wallet))
      : []
    if (offered.length === 0) {
      const unused = listed.length
        ? ` The gateway lists ${walletNames(listed)} for this merchant: add ${listed.join(", ")} to wallets to offer ${listed.length === 1 ? "it" : "them"}.`
        : ""
      return pass(`The wallets option offers none: shoppers pay by card.${unused}`)
    }
    if (!read.ok) {
      return warn(
        `wallets offers ${walletNames(offered)}; the gateway's payment methods could not be read, so whether Nexi enabled them was not checked.`,
        "Fix the API key check first, then run the doctor again.",
      )
    }
    const missing = offered.filter((wallet) => !listed.includes(wallet))
    if (missing.length > 0) {
      return warn(
        `wallets offers ${walletNames(missing)}, which the gateway's payment methods (GET /payment_methods) do not list for this merchant: a shopper who chooses ${missing.length === 1 ? "it" : "one of them"} cannot pay.`,
        `Ask Nexi to enable ${missing.join(" and ")} on the terminal, or remove ${missing.length === 1 ? "it" : "them"} from the card provider's wallets option.`,
      )
    }
    return pass(`wallets offers ${walletNames(offered)}, which the gateway lists for this merchant.`)
  },
}
