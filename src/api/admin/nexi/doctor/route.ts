/**
 * GET /admin/nexi/doctor: the configuration check of the store's card provider entry (API key,
 * environment, notification and return URLs, region currencies, mobile payment credentials,
 * clock, capture type), as NexiDoctorResponse. Always 200 when the checks ran: the report says
 * what failed.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { NexiDoctorResponse } from "../../../../staff/contract"
import { storeDoctorReport } from "../../../../staff/doctor/store-doctor"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<NexiDoctorResponse>) {
  res.json(await storeDoctorReport(req.scope))
}
