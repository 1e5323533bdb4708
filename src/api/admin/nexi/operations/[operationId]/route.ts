/**
 * GET /admin/nexi/operations/:operationId: one gateway operation (GET /operations/{id}), as
 * the gateway gives it. 400 for a malformed id, 404 when the gateway has no such operation.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { fromGateway } from "../../../../../core/medusa-errors"
import { merchantGateway } from "../../../../../core/store-entries"
import { parseInput } from "../../../../../staff/validate-input"

const ParamsSchema = z.object({
  operationId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, '-' or '_'"),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { operationId } = parseInput(ParamsSchema, req.params)
  const gateway = await merchantGateway(req.scope)
  res.json(await fromGateway(`read gateway operation ${operationId}`, () => gateway.getOperation(operationId)))
}
