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

/** The body as parsed JSON (`data`), then as the raw bytes' JSON when they are small enough to read. */
function bodyCandidates(payload: ProviderWebhookPayload["payload"]): { candidates: unknown[]; rawProblem?: string } {
  const candidates: unknown[] = [payload?.data]
  const text = rawText(payload?.rawData)
  if (text === undefined) return { candidates }
  if (text.length > MAX_BODY_BYTES)
    return { candidates, rawProblem: `the body is larger than ${MAX_BODY_BYTES / 1024} KiB` }
  try {
    candidates.push(JSON.parse(text))
    return { candidates }
  } catch {
    // not JSON: only the parsed body can still be usable
    return { candidates, rawProblem: "the body is not JSON" }
  }
}

export function parseNotificationBody<S extends z.ZodType>(
  payload: ProviderWebhookPayload["payload"],
  schema: S,
): z.infer<S> | undefined {
  for (const candidate of bodyCandidates(payload).candidates) {
    const parsed = schema.safeParse(candidate)
    if (parsed.success) return parsed.data
  }
  return undefined
}

/** Problems named in a warning; the first few are enough to see what the sender got wrong. */
const MAX_PROBLEMS_NAMED = 3

/**
 * Why a body parseNotificationBody refused is not a notification, naming the fields and what
 * is wrong with them ("operation.orderId: Invalid input: expected string, received number"),
 * for the warning a merchant reads. Zod's messages never repeat the value that was sent.
 */
export function notificationProblem<S extends z.ZodType>(
  payload: ProviderWebhookPayload["payload"],
  schema: S,
): string {
  const { candidates, rawProblem } = bodyCandidates(payload)
  // The gateway always sends JSON: raw bytes that are not JSON say all there is to say.
  if (rawProblem) return rawProblem
  // The raw bytes' JSON is what the sender wrote; Medusa's parsed body may be empty (another content type).
  const issues = schema.safeParse(candidates.at(-1)).error?.issues ?? []
  return issues
    .slice(0, MAX_PROBLEMS_NAMED)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(body)"}: ${issue.message}`)
    .join("; ")
}
