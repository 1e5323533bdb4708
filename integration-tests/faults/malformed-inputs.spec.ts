/**
 * Issue 8, malformed input: every entry of the catalogue (malformed-inputs.ts) must get a
 * clear answer (the field or the reason named) and change nothing: no gateway write, no
 * order, no payment session created, removed or moved to another status.
 *
 * Notifications: Medusa answers 200 to anything its parser accepts and hands the body to the
 * providers 5 s later, so the plugin's answer is read from what it logs and returns. Each body
 * carries an entry number in a header; the events Medusa dispatches are caught by that number
 * and passed once more to the provider, one at a time, so each warning is tied to its entry.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { cardSyncFor } from "../../src/core/card/card-sync"
import { isNexiCardWebhookProvider } from "../../src/core/provider-ids"
import { NexiCardProviderService } from "../../src/providers/nexi/card/card-provider"
import { adminHeaders } from "../support/admin-auth"
import { CARDS, type CardCheckout, CheckoutKit } from "../support/checkout-kit"
import { cardNumberSecrets } from "../support/known-secrets"
import { simulatorForSuite } from "../support/simulator"
import { eventually } from "../support/store"
import { nexiProviderOptions } from "../support/store-config"
import { suiteOutput } from "../support/suite-output"
import {
  AMOUNT_CASES,
  DROPPED_DATA_CASES,
  NOTIFICATION_CASES,
  type NotificationCase,
  OPTIONS_CASES,
  ROUTE_CASES,
  SESSION_CASES,
} from "./malformed-inputs"

jest.setTimeout(5 * 60_000)

const simulator = simulatorForSuite()

const CATALOGUE_HEADER = "x-nexi-catalogue-entry"
/** The CVV the catalogue's MOTO entries send, as it would appear in an answer that echoed the body. */
const CARD_CVV = `"${CARDS.approved.cvv}"`
/** Writes that take, hold or give back money (or let a shopper approve a payment), when accepted. */
const MONEY_MOVING =
  /\/operations\/[^/]+\/(captures|refunds|cancels)$|\/orders\/moto$|\/transaction\/(payment|refund|reversal)\/|\/hpp\/[^/]+\/(pay|challenge)$/

function withValueAt(options: Record<string, any>, path: string, value: unknown): Record<string, any> {
  const copy = structuredClone(options)
  const keys = path.split(".")
  let target = copy
  for (const key of keys.slice(0, -1)) target = target[key] ??= {}
  if (value === undefined) delete target[keys.at(-1)!]
  else target[keys.at(-1)!] = value
  return copy
}

describe("provider options", () => {
  const valid = nexiProviderOptions()

  it("accepts the options the suites boot with", () => {
    expect(() => NexiCardProviderService.validateOptions(valid)).not.toThrow()
  })

  it.each(OPTIONS_CASES)("refuses $name, naming the option", ({ set, error }) => {
    const options = withValueAt(valid, set.path, set.value)
    expect(() => NexiCardProviderService.validateOptions(options)).toThrow(
      /^medusa-payment-nexi: invalid provider options: /,
    )
    expect(() => NexiCardProviderService.validateOptions(options)).toThrow(error)
  })
})

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let kit: CheckoutKit
    let checkout: CardCheckout
    let collectionId: string
    let otherToken: string
    let token: string
    let otherCartId: string

    // Seeded once: the runner snapshots the database after beforeAll and restores it before each test.
    beforeAll(async () => {
      await simulator.control("POST", "/reset")
      kit = new CheckoutKit(api, getContainer, simulator)
      await kit.seed()
      const before = (await simulator.control<{ securityTokens: string[] }>("GET", "/security-tokens")).securityTokens
        .length
      checkout = await kit.openCardCheckout()
      otherCartId = (await kit.openCardCheckout()).cartId
      const tokens = (await simulator.control<{ securityTokens: string[] }>("GET", "/security-tokens")).securityTokens
      token = tokens[before]
      otherToken = tokens[before + 1]
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "cart",
        fields: ["payment_collection.id"],
        filters: { id: checkout.cartId },
      })
      collectionId = data[0].payment_collection!.id
    })

    function fill(text: string): string {
      return text
        .replaceAll("{{orderId}}", checkout.orderId)
        .replaceAll("{{otherToken}}", otherToken)
        .replaceAll("{{token}}", token)
        .replaceAll("{{sessionId}}", checkout.sessionId)
        .replaceAll("{{otherCartId}}", otherCartId)
        .replaceAll("{{cartId}}", checkout.cartId)
    }

    /** What a malformed input must not have changed. */
    async function storeState(container: MedusaContainer) {
      const { requests } = await simulator.control<{
        requests: Array<{ method: string; path: string; status: number }>
      }>("GET", "/requests")
      const writes = requests.filter((request) => request.method === "POST")
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data: orders } = await query.graph({ entity: "order", fields: ["id"] })
      const { data: sessions } = await query.graph({
        entity: "payment_session",
        fields: ["id", "provider_id", "status"],
      })
      return {
        gatewayWrites: writes.length,
        moneyMovingWrites: writes.filter(
          (request) => request.status > 0 && request.status < 400 && MONEY_MOVING.test(request.path),
        ).length,
        orders: orders.length,
        sessions: sessions
          .map(
            (session: { id: string; provider_id: string; status: string }) =>
              `${session.id} ${session.provider_id} ${session.status}`,
          )
          .sort(),
      }
    }

    /** The same state, blind to session ids and to new unpaid hosted pages (see supersedesOtherSessions). */
    function withoutSessionIdentity(state: Awaited<ReturnType<typeof storeState>>) {
      return {
        moneyMovingWrites: state.moneyMovingWrites,
        orders: state.orders,
        sessions: state.sessions.map((line) => line.replace(/^\S+ /, "")),
      }
    }

    async function send(method: "GET" | "POST", path: string, body: unknown, headers: Record<string, string> = {}) {
      const answer = await fetch(`${api.defaults.baseURL}${path}`, {
        method,
        headers: { "x-publishable-api-key": kit.publishableKey, ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      })
      const text = await answer.text()
      let parsed: any = text
      try {
        parsed = JSON.parse(text)
      } catch {
        // a plain-text answer stays text
      }
      return {
        status: answer.status,
        message: typeof parsed === "object" && parsed ? String(parsed.message ?? text) : text,
        text,
      }
    }

    /** One line per entry whose answer was not the expected one; empty when all were. */
    function mismatch(
      name: string,
      got: { status: number; message: string },
      status: number,
      message: RegExp,
    ): string[] {
      return got.status === status && message.test(got.message) ? [] : [`${name}: got ${got.status} "${got.message}"`]
    }

    it("answers each malformed payment session request with a clear refusal and keeps the cart's session", async () => {
      const problems: string[] = []
      for (const entry of SESSION_CASES) {
        const before = await storeState(getContainer())
        const got = await send("POST", `/store/payment-collections/${collectionId}/payment-sessions`, entry.body, {
          "content-type": "application/json",
        })
        problems.push(...mismatch(entry.name, got, entry.status, entry.message))
        const after = await storeState(getContainer())
        const [expected, actual] = entry.supersedesOtherSessions
          ? [withoutSessionIdentity(before), withoutSessionIdentity(after)]
          : [before, after]
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          problems.push(`${entry.name}: changed ${JSON.stringify(expected)} to ${JSON.stringify(actual)}`)
      }
      expect(problems).toEqual([])
    })

    it("refuses each amount or currency the gateways cannot take before any request, and removes the session", async () => {
      const payments = getContainer().resolve(Modules.PAYMENT)
      const problems: string[] = []
      for (const entry of AMOUNT_CASES) {
        const before = await storeState(getContainer())
        const outcome = await payments
          .createPaymentSession(collectionId, {
            provider_id: entry.provider_id,
            amount: entry.amount as number,
            currency_code: entry.currency_code,
            data: entry.data ?? {},
            context: {},
          })
          .then(
            (session) => `created ${session.id}`,
            (error: Error) => error.message,
          )
        if (!entry.message.test(outcome)) problems.push(`${entry.name}: got "${outcome}"`)
        const after = await storeState(getContainer())
        if (JSON.stringify(after) !== JSON.stringify(before))
          problems.push(`${entry.name}: changed ${JSON.stringify(before)} to ${JSON.stringify(after)}`)
      }
      expect(problems).toEqual([])
    })

    it("creates the session as usual without the data keys only the plugin may set", async () => {
      const problems: string[] = []
      for (const entry of DROPPED_DATA_CASES) {
        const before = await storeState(getContainer())
        const forged = JSON.parse(fill(JSON.stringify(entry.forged))) as Record<string, unknown>
        const got = await send(
          "POST",
          `/store/payment-collections/${collectionId}/payment-sessions`,
          { provider_id: entry.provider_id, data: forged },
          {
            "content-type": "application/json",
          },
        )
        if (got.status !== 200) {
          problems.push(`${entry.name}: got ${got.status} "${got.message}"`)
          continue
        }
        const sessions: Array<{ provider_id: string; status: string; data: Record<string, unknown> }> = JSON.parse(
          got.text,
        ).payment_collection.payment_sessions
        const session = sessions.find((candidate) => candidate.provider_id === entry.provider_id)
        if (session?.status !== "pending")
          problems.push(`${entry.name}: the session is ${session?.status ?? "missing"}`)
        for (const [key, value] of Object.entries(forged)) {
          if (JSON.stringify(session?.data?.[key]) === JSON.stringify(value))
            problems.push(`${entry.name}: data.${key} kept the storefront's value`)
        }
        // A new card session replaces the cart's one (a new unpaid hosted page): nothing else may change.
        const after = await storeState(getContainer())
        if (JSON.stringify(withoutSessionIdentity(after)) !== JSON.stringify(withoutSessionIdentity(before))) {
          problems.push(
            `${entry.name}: changed ${JSON.stringify(withoutSessionIdentity(before))} to ${JSON.stringify(withoutSessionIdentity(after))}`,
          )
        }
      }
      expect(problems).toEqual([])
    })

    it("answers each malformed store and admin route call with a clear refusal, never repeating a card", async () => {
      const staff = await adminHeaders(getContainer(), api)
      const before = await storeState(getContainer())
      const problems: string[] = []
      for (const entry of ROUTE_CASES) {
        const got = await send(
          entry.method,
          fill(entry.path),
          entry.body === undefined ? undefined : fill(JSON.stringify(entry.body)),
          {
            "content-type": "application/json",
            ...(entry.admin ? staff.headers : {}),
          },
        )
        problems.push(...mismatch(entry.name, got, entry.status, entry.message))
        if (cardNumberSecrets().some((card) => got.text.includes(card.value)) || got.text.includes(CARD_CVV)) {
          problems.push(`${entry.name}: the answer repeats the card`)
        }
      }
      expect(problems).toEqual([])
      expect(await storeState(getContainer())).toEqual(before)
    })

    it("ignores each malformed or forged notification with a warning that says why, and changes nothing", async () => {
      const container = getContainer()
      const dispatched = new Map<string, { provider: string; payload: any }>()
      container.resolve(Modules.EVENT_BUS).subscribe(
        PaymentWebhookEvents.WebhookReceived,
        async (event) => {
          const webhook = event.data as { provider: string; payload: any }
          const entry = webhook?.payload?.headers?.[CATALOGUE_HEADER]
          if (entry) dispatched.set(entry, webhook)
        },
        { subscriberId: "malformed-inputs-catalogue" },
      )
      const before = await storeState(container)
      const problems: string[] = []
      const accepted: Array<[string, NotificationCase]> = []
      for (const [index, entry] of NOTIFICATION_CASES.entries()) {
        const body = entry.raw !== undefined ? fill(entry.raw) : fill(JSON.stringify(entry.body))
        const got = await send("POST", `/hooks/payment/${entry.provider ?? "nexi_nexi"}`, body, {
          "content-type": entry.contentType ?? "application/json",
          [CATALOGUE_HEADER]: String(index),
        })
        if (got.status !== entry.status || (entry.message && !entry.message.test(got.message))) {
          problems.push(`${entry.name}: Medusa answered ${got.status} "${got.message.slice(0, 200)}"`)
        }
        if (got.status === 200) accepted.push([String(index), entry])
      }
      await eventually(async () => (accepted.every(([index]) => dispatched.has(index)) ? true : undefined), {
        timeoutMs: 60_000,
      })

      // The provider answers Medusa's own subscriber `not_supported` for every body; for a card
      // entry the plugin's subscriber decides, through the sync of the gateway order. A body
      // carrying the genuine token is judged from a fresh read of the order, never from the
      // body: an unpaid order changes nothing. A mobile scheme has no notifications at all.
      const payments = container.resolve(Modules.PAYMENT)
      for (const [index, entry] of accepted) {
        const webhook = dispatched.get(index) as { provider: string; payload: any }
        const mark = suiteOutput().chunks().length
        const door = await payments.getWebhookActionAndData(webhook as never)
        if (door.action !== "not_supported") problems.push(`${entry.name}: the provider answered ${door.action}`)
        if (isNexiCardWebhookProvider(webhook.provider)) {
          const outcome = await cardSyncFor(container, `pp_${webhook.provider}`).notification(webhook.payload)
          if (outcome !== "unchanged") problems.push(`${entry.name}: the sync ${outcome} the payment`)
        }
        const logged = suiteOutput().textSince(mark)
        if (entry.warning && !entry.warning.test(logged))
          problems.push(
            `${entry.name}: no warning matching ${entry.warning} in ${JSON.stringify(logged.slice(0, 300))}`,
          )
      }
      expect(problems).toEqual([])
      // Medusa's own subscribers saw every body too; give their work time to land, then compare.
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      expect(await storeState(container)).toEqual(before)
      expect((await kit.session(checkout.sessionId)).status).toBe("pending")
      expect(await kit.ordersOfCart(checkout.cartId)).toEqual([])
    })
  },
})
