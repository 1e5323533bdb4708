/**
 * Medusa hands the webhook body over as parsed JSON (`data`) and as raw bytes (`rawData`, a
 * Buffer, or `{ type: "Buffer", data: [...] }` after the Redis event bus). Read whichever is
 * usable, and validate it; an unusable body yields undefined, never an exception.
 */
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import type { z } from "zod"

const MAX_BODY_BYTES = 64 * 1024

function rawText(rawData: unknown): string | undefined {
  if (Buffer.isBuffer(rawData)) return rawData.toString("utf8")
  if (typeof rawData === "string") return rawData
  if (rawData && typeof rawData === "object" && (rawData as { type?: unknown }).type === "Buffer") {
    const bytes = (rawData as { data?: unknown }).data
    return Array.isArray(bytes) ? Buffer.from(bytes as number[]).toString("utf8") : undefined
  }
  return undefined
}

export function parseNotificationBody<S extends z.ZodType>(
  payload: ProviderWebhookPayload["payload"],
  schema: S,
): z.infer<S> | undefined {
  const candidates: unknown[] = [payload?.data]
  const text = rawText(payload?.rawData)
  if (text !== undefined && text.length <= MAX_BODY_BYTES) {
    try {
      candidates.push(JSON.parse(text))
    } catch {
      // not JSON: only the parsed body can still be usable
    }
  }
  for (const candidate of candidates) {
    const parsed = schema.safeParse(candidate)
    if (parsed.success) return parsed.data
  }
  return undefined
}
