/**
 * The plugin in a store set up for production (integration-tests/production-store): Redis event
 * bus, workflow engine, locking and caching, a server instance and a worker instance on one
 * PostgreSQL database and one Redis.
 *
 * - The server instance runs in this jest process (medusaIntegrationTestRunner,
 *   MEDUSA_WORKER_MODE=server): it answers the store API and /hooks/payment/nexi_nexi, and
 *   only emits events; it runs no subscriber and loads no scheduled job.
 * - The worker instance is `medusa start` in a child process (MEDUSA_WORKER_MODE=worker): it
 *   registers no routes, consumes the events from Redis (core's and the plugin's webhook
 *   subscribers) and runs the reconciliation job on its cron.
 * So a notification posted to the server is handled on the worker, having crossed Redis.
 * The server is the in-process one because the tests seed and read through its container; the
 * worker is the one a store runs, unchanged. Both load the built plugin (see medusa-config.js).
 * The runner restores the database before each test, cutting both instances' connections;
 * Medusa's pool reconnects (the worker logs "Connection ended unexpectedly"), and Redis keeps
 * its queues, so the worker carries on across tests. Its output: .test-artifacts/production-worker.log.
 *
 * Needs Redis (REDIS_URL, default redis://127.0.0.1:6379) and the built plugin
 * (`npm run build`; the store loads `.medusa/server` as a store installing the package would).
 */

import fs from "node:fs"
import path from "node:path"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type Redis from "ioredis"
import { NEXI_LEDGER_MODULE, type PaymentLedger } from "../../src/modules/nexi-ledger/types"
import { simulatorForSuite } from "../support/simulator"
import {
  createCart,
  eventually,
  NEXI_CARD_PROVIDER,
  seedEuroShop,
  startPaymentSession,
  storeHeaders,
} from "../support/store"
import { connectRedis, deleteKeysWithPrefix, keysWithPrefix, REDIS_URL, uniqueKeyPrefix } from "./support/redis"
import { startWorkerInstance, type WorkerInstance } from "./support/worker-instance"

const { freePort } = require("../../scripts/lib/free-port") as { freePort: () => Promise<number> }

jest.setTimeout(600_000)

const root = path.resolve(__dirname, "..", "..")
const storeDir = path.join(root, "integration-tests", "production-store")
const builtJob = path.join(root, ".medusa", "server", "src", "jobs", "nexi-reconcile-pending-payments.js")
const GATEWAY_PATH = "/api/phoenix-0.0/psp/api/v1"
const WEBHOOK_URL = `${process.env.MEDUSA_BACKEND_URL}/hooks/payment/nexi_nexi`
const APPROVED = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }
const DECLINED = { pan: "5515931855858729", expiryDate: "1230", cvv: "123" }
/** Logged by the Redis event bus each time an instance starts handling an event. */
const HANDLING_WEBHOOK = "Processing payment.webhook_received"
const RETRYING_WEBHOOK = "Retrying payment.webhook_received"
/** Medusa delays webhook events by 5 s; this lets any extra handling of an event show up. */
const AFTER_WEBHOOK_DELAY_MS = 8_000

const keyPrefix = uniqueKeyPrefix()
// medusa-config.js is read here (the server instance) and in the worker's process: both must
// use this run's Redis keys, and this process is the server.
Object.assign(process.env, { REDIS_URL, REDIS_KEY_PREFIX: keyPrefix, MEDUSA_WORKER_MODE: "server" })

let redis: Redis | undefined
const simulator = simulatorForSuite()

afterAll(async () => {
  if (!redis) return
  await deleteKeysWithPrefix(redis, keyPrefix)
  redis.disconnect()
})

medusaIntegrationTestRunner({
  cwd: storeDir,
  hooks: {
    // Before any database or app work: without Redis or the build nothing here can pass.
    beforeServerStart: async () => {
      redis = await connectRedis()
      if (!fs.existsSync(builtJob))
        throw new Error("The plugin is not built: run `npm run build` before this suite (npm test does).")
    },
  },
  testSuite: ({ api, getContainer, dbConfig }) => {
    describe("a server instance and a worker instance", () => {
      let worker: WorkerInstance
      let container: MedusaContainer
      let publishableKey: string
      let regionId: string
      let variantId: string

      beforeAll(async () => {
        if (!getContainer()) throw new Error("the server instance did not start; see the first error")
        // Every test below relies on this process consuming no event and running no job.
        const { workerMode } = getContainer().resolve(ContainerRegistrationKeys.CONFIG_MODULE).projectConfig
        if (workerMode !== "server")
          throw new Error(`the in-process instance must run as a server instance, not "${workerMode}"`)
        worker = await startWorkerInstance({
          storeDir,
          port: await freePort(),
          env: { DATABASE_URL: dbConfig.clientUrl },
          logFile: path.join(root, ".test-artifacts", "production-worker.log"),
        })
      })

      afterAll(async () => {
        await worker?.stop()
      })

      beforeEach(async () => {
        container = getContainer()
        await simulator.control("POST", "/reset")
        ;({ publishableKey, regionId, variantId } = await seedEuroShop(container))
      })

      async function openCheckout() {
        const cart = await createCart(api, publishableKey, { regionId, variantId })
        const { session } = await startPaymentSession(api, publishableKey, cart.id, NEXI_CARD_PROVIDER)
        return { cartId: cart.id as string, sessionId: session.id, orderId: session.data.order_id as string }
      }

      async function pay(orderId: string, card: typeof APPROVED) {
        await simulator.control("POST", `/hpp/${orderId}/pay`, card)
      }

      /** How many times the store read this order from the gateway (GET /orders/{id}). */
      async function gatewayReads(orderId: string): Promise<number> {
        const { counts } = await simulator.control<{ counts: Record<string, number> }>("GET", "/requests")
        return counts[`GET ${GATEWAY_PATH}/orders/${orderId}`] ?? 0
      }

      async function ordersOfCart(cartId: string): Promise<string[]> {
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
        return data.map((row: { order_id: string }) => row.order_id)
      }

      async function paymentsOfSession(sessionId: string) {
        return container
          .resolve(Modules.PAYMENT)
          .listPayments({ payment_session_id: sessionId }, { relations: ["captures"] })
      }

      const sessionOf = async (sessionId: string) =>
        (await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: sessionId }))[0]
      const settle = () => new Promise((resolve) => setTimeout(resolve, AFTER_WEBHOOK_DELAY_MS))

      /** Posts a body to the server's webhook route as raw text, as a gateway could. */
      async function postNotificationText(text: string) {
        const answer = await fetch(WEBHOOK_URL, {
          method: "POST",
          headers: { "content-type": "text/plain; charset=utf-8" },
          body: text,
        })
        expect(answer.status).toBe(200)
      }

      it("handles a notification once, on the worker: one order, one authorization, one gateway read per event", async () => {
        const handledBefore = worker.count(HANDLING_WEBHOOK)
        const retriedBefore = worker.count(RETRYING_WEBHOOK)
        const checkout = await openCheckout()
        await pay(checkout.orderId, APPROVED)

        await eventually(async () => ((await ordersOfCart(checkout.cartId)).length ? true : undefined))
        await settle()

        expect(await ordersOfCart(checkout.cartId)).toHaveLength(1)
        const payments = await paymentsOfSession(checkout.sessionId)
        expect(payments).toHaveLength(1)
        expect(payments[0].captures ?? []).toHaveLength(0)
        expect((await sessionOf(checkout.sessionId)).status).toBe("authorized")
        expect(worker.count(HANDLING_WEBHOOK) - handledBefore).toBe(1)
        expect(worker.count(RETRYING_WEBHOOK) - retriedBefore).toBe(0)
        // The notification's read, then authorizePayment's read while the cart completes.
        expect(await gatewayReads(checkout.orderId)).toBe(2)
      })

      it("handles a notification delivered twice once: still one order and one payment", async () => {
        const handledBefore = worker.count(HANDLING_WEBHOOK)
        await simulator.control("POST", "/faults/notifications", { copies: 2 })
        const checkout = await openCheckout()
        await pay(checkout.orderId, APPROVED)
        await simulator.control("POST", "/notifications/flush")

        await eventually(async () => (worker.count(HANDLING_WEBHOOK) - handledBefore >= 2 ? true : undefined))
        await eventually(async () => ((await ordersOfCart(checkout.cartId)).length ? true : undefined))
        await settle()

        const { notifications } = await simulator.control<{ notifications: Array<{ status?: number }> }>(
          "GET",
          "/notifications",
        )
        expect(notifications.map((notification) => notification.status)).toEqual([200, 200])
        expect(worker.count(HANDLING_WEBHOOK) - handledBefore).toBe(2)
        expect(await ordersOfCart(checkout.cartId)).toHaveLength(1)
        expect(await paymentsOfSession(checkout.sessionId)).toHaveLength(1)
        // One read per event, and authorizePayment's once: the copy found the session paid.
        expect(await gatewayReads(checkout.orderId)).toBe(3)
      })

      it("runs the plugin's own subscriber on the worker: a declined payment marks its session", async () => {
        const checkout = await openCheckout()
        await pay(checkout.orderId, DECLINED)
        const failed = await eventually(async () => {
          const session = await sessionOf(checkout.sessionId)
          return session.status === "error" ? session : undefined
        })
        expect(failed.data?.reason).toBeTruthy()
        expect(await ordersOfCart(checkout.cartId)).toEqual([])
      })

      it("receives rawData intact through the Redis event bus: a notification usable only as raw bytes completes the cart", async () => {
        // The gateway's notification is kept back, then posted by the test as text/plain:
        // Medusa parses no JSON from it, so the provider can only read the raw bytes, which the
        // Redis event bus carries as { type: "Buffer", data: [...] }.
        await simulator.control("POST", "/faults/notifications", { drop: 1 })
        const checkout = await openCheckout()
        await pay(checkout.orderId, APPROVED)
        const { notifications } = await simulator.control<{ notifications: Array<{ body: any }> }>(
          "GET",
          "/notifications",
        )
        const body = notifications.find(
          (notification) => notification.body.operation.orderId === checkout.orderId,
        )!.body
        const genuine = JSON.stringify(body)

        // One changed byte in the security token: the same check must then refuse it.
        const token = body.securityToken as string
        const tampered = genuine.replace(token, token.slice(0, -1) + (token.endsWith("0") ? "1" : "0"))
        const refused = `nexi: ignored a notification for order ${checkout.orderId} whose security token does not match`
        await postNotificationText(tampered)
        await eventually(async () => (worker.count(refused) > 0 ? true : undefined))
        expect(await ordersOfCart(checkout.cartId)).toEqual([])
        expect((await sessionOf(checkout.sessionId)).status).toBe("pending")

        await postNotificationText(genuine)
        await eventually(async () => ((await ordersOfCart(checkout.cartId)).length ? true : undefined))
        await settle()
        expect(await ordersOfCart(checkout.cartId)).toHaveLength(1)
        expect((await sessionOf(checkout.sessionId)).status).toBe("authorized")
      })

      it("completes the cart from the storefront's status poll on the server when the notification never came", async () => {
        await simulator.control("POST", "/faults/notifications", { drop: 1 })
        const checkout = await openCheckout()
        await pay(checkout.orderId, APPROVED)
        const { data } = await api.get(
          `/store/nexi/payment-sessions/${checkout.sessionId}?cart_id=${checkout.cartId}`,
          storeHeaders(publishableKey),
        )
        expect(data.payment_session.status).toBe("authorized")
        expect(data.order_id).toBeTruthy()
        expect(await ordersOfCart(checkout.cartId)).toEqual([data.order_id])
      })

      it("runs the reconciliation job once per interval across the instances, through the Redis lock", async () => {
        const { default: reconcileJob } = require(builtJob) as {
          default: (container: MedusaContainer) => Promise<void>
        }
        // A: paid, but its notification never arrives. B: never paid, so every run reads it.
        await simulator.control("POST", "/faults/notifications", { drop: 1 })
        const paidSilently = await openCheckout()
        const unpaid = await openCheckout()
        await pay(paidSilently.orderId, APPROVED)
        // Stands in for the two minutes (pollPendingAfterSeconds) a session waits before the job looks at it.
        for (const checkout of [paidSilently, unpaid]) await makeDue(checkout.orderId)

        // The worker's cron ("* * * * *") reconciles both, oldest first: A completes, B stays pending.
        await eventually(async () => ((await gatewayReads(unpaid.orderId)) > 0 ? true : undefined), {
          timeoutMs: 150_000,
          intervalMs: 1_000,
        })
        expect(await ordersOfCart(paidSilently.cartId)).toHaveLength(1)
        expect(await gatewayReads(unpaid.orderId)).toBe(1)
        // The run's lock is in Redis, where every instance sees it, and expires on its own.
        const lockKeys = (await keysWithPrefix(redis!, `${keyPrefix}medusa_lock:`)).filter((key) =>
          key.includes("reconcile"),
        )
        expect(lockKeys).toHaveLength(1)
        const [lockKey] = lockKeys
        expect(await redis!.ttl(lockKey)).toBeGreaterThan(0)

        // The server instance runs the same job in the same interval: the worker's lock in Redis stops it.
        await reconcileJob(container)
        expect(await gatewayReads(unpaid.orderId)).toBe(1)

        // Control: with the interval's lock gone (as when it expires) and B due again, the server's run does read.
        await redis!.del(lockKey)
        await makeDue(unpaid.orderId)
        await reconcileJob(container)
        expect(await gatewayReads(unpaid.orderId)).toBe(2)
        expect(await ordersOfCart(paidSilently.cartId)).toHaveLength(1)
        expect((await sessionOf(unpaid.sessionId)).status).toBe("pending")
      })

      /** Makes the ledger's attempt for this gateway order due now, as its pause running out would. */
      async function makeDue(orderId: string) {
        await container
          .resolve<PaymentLedger>(NEXI_LEDGER_MODULE)
          .updateAttempt(orderId, { next_check_at: new Date(Date.now() - 1_000) })
      }
    })
  },
})
