/**
 * The suite's own view of Redis: is it there, what did the store leave in it, and cleaning up
 * after the run. The client is ioredis, the one Medusa's Redis modules use (it comes with
 * @medusajs/medusa), so the suite needs no dependency of its own.
 */
import { randomBytes } from "node:crypto"
import Redis from "ioredis"

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
const START_HINT = `redis-server --daemonize yes --port 6379 --save "" --appendonly no`

/**
 * A key prefix of its own for this run: other test runs, CI jobs and stores may share the
 * Redis, and the store's queues, locks and cache entries must not meet theirs.
 */
export function uniqueKeyPrefix(): string {
  return `nexi-test-${process.pid}-${randomBytes(4).toString("hex")}:`
}

/** Connects, or fails with how to start a Redis, so a missing server is not a 4-minute hang. */
export async function connectRedis(url = REDIS_URL): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  })
  try {
    await client.connect()
    await client.ping()
    return client
  } catch (error) {
    client.disconnect()
    throw new Error(
      `The production suite needs Redis at ${url} (set REDIS_URL for another address) and could not reach it: ` +
        `${(error as Error).message}. Start one with: ${START_HINT}`,
    )
  }
}

export async function keysWithPrefix(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = "0"
  do {
    const [next, batch] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500)
    keys.push(...batch)
    cursor = next
  } while (cursor !== "0")
  return keys
}

export async function deleteKeysWithPrefix(client: Redis, prefix: string): Promise<number> {
  const keys = await keysWithPrefix(client, prefix)
  for (let start = 0; start < keys.length; start += 500) await client.unlink(...keys.slice(start, start + 500))
  return keys.length
}
