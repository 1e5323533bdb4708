/**
 * GET /admin/nexi/operations?fromTime&toTime&maxRecords&channel&operationType&customField:
 * the gateway's operations (GET /operations), newest first, as the gateway gives them:
 * { operations: [...] }. Every filter is checked before the gateway is asked; an unknown
 * parameter is refused rather than silently ignored, so a typo never widens the list.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { fromGateway } from "../../../../core/medusa-errors"
import { merchantGateway } from "../../../../core/store-entries"
import { CHANNELS, OPERATION_TYPES } from "../../../../gateway/schemas"
import { parseInput } from "../../../../staff/validate-input"

const isoTime = z.iso.datetime({
  offset: true,
  message: "must be an ISO 8601 date-time, for example 2025-01-31T00:00:00Z",
})

const QuerySchema = z
  .strictObject({
    fromTime: isoTime.optional(),
    toTime: isoTime.optional(),
    maxRecords: z
      .string()
      .regex(/^[1-9]\d{0,8}$/, "must be a whole number above 0")
      .transform(Number)
      .optional(),
    channel: z.enum(CHANNELS, { message: `must be one of ${CHANNELS.join(", ")}` }).optional(),
    operationType: z.enum(OPERATION_TYPES, { message: `must be one of ${OPERATION_TYPES.join(", ")}` }).optional(),
    customField: z.string().min(1, "must not be empty").max(255, "must be at most 255 characters").optional(),
  })
  .refine((query) => !query.fromTime || !query.toTime || Date.parse(query.fromTime) <= Date.parse(query.toTime), {
    path: ["toTime"],
    message: "must not be before fromTime",
  })

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const filters = parseInput(QuerySchema, req.query)
  const gateway = await merchantGateway(req.scope)
  res.json(await fromGateway("list the gateway's operations", () => gateway.listOperations(filters)))
}
