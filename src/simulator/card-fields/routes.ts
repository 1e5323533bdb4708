/**
 * What the browser reaches of XPay Build, at the simulator's public URL:
 *   GET  /field.html?id=&sid=          one card field (field-page.ts)
 *   GET  /monetaweb/resources/hfsdk.js the SDK stand-in (sdk.ts)
 *   POST /fields/check                 a field checks its value: { valid } or { valid: false, errorCode, errorMessage }
 *   POST /fields/confirm               the fields' values together: the session's state, or what is wrong
 * The fields' error codes are the SDK's: HF0001 invalid field, HF0003 session expired, HF0004
 * card number invalid, HF0005 circuit not accepted, HF0006 card expired (HF0002, unavailable,
 * is the fields' own when the simulator cannot be reached).
 */
import { z } from "zod"
import { type CardField, checkExpiry, checkPan } from "../cards"
import type { GatewayContext } from "../gateway/context"
import type { GatewayStore, StoredOrder } from "../gateway/store"
import type { HostedPayments } from "../hpp/flow"
import { labelsFor } from "../hpp/labels"
import { describeIssue, jsonAnswer } from "../http-helpers"
import type { SimRequest, SimResponse } from "../http-types"
import { fieldPage } from "./field-page"
import { SDK_SCRIPT } from "./sdk"
import { buildStateOf, buildStateView, CARD_FIELD_IDS, type CardFieldId } from "./sessions"

export function serveFieldPage(store: GatewayStore) {
  return (req: SimRequest): SimResponse => {
    const id = req.query.get("id") ?? ""
    const order = store.findOrderByBuildSession(req.query.get("sid") ?? "")
    const build = order?.hosted?.build
    if (req.method !== "GET" || req.path !== "/" || !build || !isFieldId(id)) {
      return { status: 404, text: "no such card field (check the id and sid of the field's src)" }
    }
    const labels = labelsFor(order.hosted!.paymentSession.language)
    return {
      status: 200,
      html: fieldPage({
        id,
        sessionId: build.sessionId,
        fieldIds: CARD_FIELD_IDS,
        merchantOrigin: build.merchantOrigin,
        labels,
      }),
      headers: { "cache-control": "no-store" },
    }
  }
}

export function serveSdk(req: SimRequest): SimResponse {
  if (req.method !== "GET" || req.path !== "/hfsdk.js") return { status: 404, text: "not found" }
  // Readable cross-origin, so a page can load it with integrity and crossorigin="anonymous".
  return {
    status: 200,
    text: SDK_SCRIPT,
    contentType: "text/javascript; charset=utf-8",
    headers: { "access-control-allow-origin": "*", "cache-control": "no-cache" },
  }
}

const CheckSchema = z.strictObject({ sid: z.string(), id: z.string(), value: z.string() })
const ConfirmSchema = z.strictObject({ sid: z.string(), values: z.record(z.string(), z.string()) })

interface FieldProblem {
  errorCode: string
  errorMessage: string
}

type Parsed<T> = { ok: true; value: T; order: StoredOrder } | { ok: false; answer: SimResponse }

export function createFieldsApi(context: GatewayContext, payments: HostedPayments) {
  return (req: SimRequest): SimResponse => {
    if (req.method === "POST" && req.path === "/check") {
      const parsed = parse(context.store, CheckSchema, req.body)
      return parsed.ok ? check(context, payments, parsed.order, parsed.value) : parsed.answer
    }
    if (req.method === "POST" && req.path === "/confirm") {
      const parsed = parse(context.store, ConfirmSchema, req.body)
      return parsed.ok ? confirm(context, payments, parsed.order, parsed.value.values) : parsed.answer
    }
    return { status: 404, text: "not found" }
  }
}

function parse<S extends typeof CheckSchema | typeof ConfirmSchema>(
  store: GatewayStore,
  schema: S,
  body: unknown,
): Parsed<z.output<S>> {
  const parsed = schema.safeParse(body)
  if (!parsed.success) return refuse(400, "HF0001", parsed.error.issues.map((issue) => describeIssue(issue)).join("; "))
  const order = store.findOrderByBuildSession(parsed.data.sid)
  if (!order) return refuse(404, "HF0001", "no Build session has this sid")
  return { ok: true, value: parsed.data as z.output<S>, order }
}

function refuse(status: number, errorCode: string, errorMessage: string): { ok: false; answer: SimResponse } {
  return { ok: false, answer: jsonAnswer(status, { errorCode, errorMessage }) }
}

function check(
  context: GatewayContext,
  payments: HostedPayments,
  order: StoredOrder,
  { id, value }: { id: string; value: string },
): SimResponse {
  if (!isFieldId(id)) return jsonAnswer(400, { errorCode: "HF0001", errorMessage: `id: ${id} is no card field` })
  const problem = expiry(payments, order) ?? fieldProblem(id, value, context.clock.now())
  return jsonAnswer(200, problem ? { valid: false, ...problem } : { valid: true })
}

function confirm(
  context: GatewayContext,
  payments: HostedPayments,
  order: StoredOrder,
  values: Record<string, string>,
): SimResponse {
  const expired = expiry(payments, order)
  if (expired) return jsonAnswer(400, { ...expired, validationStatus: [] })
  const state = buildStateOf(order)
  if (state !== "CARD_DATA_COLLECTION" && state !== "READY_FOR_PAYMENT") {
    // Confirmed again after the merchant finalized: the fields report where the session is.
    const { url } = buildStateView(context.publicUrl, order)
    return jsonAnswer(200, { state, data: url ? { url } : {} })
  }
  const problems = new Map<CardFieldId, FieldProblem>()
  for (const id of CARD_FIELD_IDS) {
    const problem = fieldProblem(id, values[id] ?? "", context.clock.now())
    if (problem) problems.set(id, problem)
  }
  if (problems.size === 0) {
    const entry = { pan: values.CARD_NUMBER, expiryDate: values.EXPIRATION_DATE, cvv: values.SECURITY_CODE }
    const paying = payments.checkEntry(order, entry)
    if (paying.ok) {
      const bin = values.CARD_NUMBER.replace(/[\s-]/g, "").slice(0, 6)
      order.hosted!.build!.confirmed = { card: paying.card, bin }
      context.store.changed()
      return jsonAnswer(200, { state: "READY_FOR_PAYMENT", data: {} })
    }
    problems.set(FIELD_OF[paying.field], { errorCode: "HF0001", errorMessage: paying.message })
  }
  const validationStatus = CARD_FIELD_IDS.map((id) => ({ id, valid: !problems.has(id), ...problems.get(id) }))
  const invalid = [...problems.keys()].join(", ")
  return jsonAnswer(400, { errorCode: "HF0001", errorMessage: `invalid card fields: ${invalid}`, validationStatus })
}

const FIELD_OF: Record<CardField, CardFieldId> = {
  pan: "CARD_NUMBER",
  expiryDate: "EXPIRATION_DATE",
  cvv: "SECURITY_CODE",
}

/** HF0003 when the session expired (or closed some other way before its card was confirmed). */
function expiry(payments: HostedPayments, order: StoredOrder): FieldProblem | undefined {
  const reason = payments.closedReason(order)?.reason
  return reason ? { errorCode: "HF0003", errorMessage: reason } : undefined
}

/** A field's own check; the CVV's length against the circuit is checked with the whole card. */
function fieldProblem(id: CardFieldId, value: string, now: Date): FieldProblem | undefined {
  switch (id) {
    case "CARD_NUMBER": {
      const pan = checkPan(value)
      if (pan.ok) return undefined
      return {
        errorCode: pan.reason === "unknownCircuit" ? "HF0005" : "HF0004",
        errorMessage: `card number ${pan.message}`,
      }
    }
    case "EXPIRATION_DATE": {
      const expiry = checkExpiry(value, now)
      if (expiry.ok) return undefined
      return { errorCode: expiry.reason === "expired" ? "HF0006" : "HF0001", errorMessage: `expiry ${expiry.message}` }
    }
    case "SECURITY_CODE":
      return /^\d{3,4}$/.test(value) ? undefined : { errorCode: "HF0001", errorMessage: "CVV must be 3 or 4 digits" }
    case "CARDHOLDER_NAME":
      return value.trim() === "" ? { errorCode: "HF0001", errorMessage: "cardholder name is required" } : undefined
  }
}

function isFieldId(id: string): id is CardFieldId {
  return (CARD_FIELD_IDS as readonly string[]).includes(id)
}
