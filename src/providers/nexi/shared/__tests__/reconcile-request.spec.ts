import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { attemptReconcileRequest, readReconcileRequest, reconcileRequest } from "../reconcile-request"

type Payload = ProviderWebhookPayload["payload"]

function body(payload: Payload): Record<string, unknown> {
  return (payload.data as Record<string, Record<string, unknown>>).nexi_reconcile
}

function withBody(fields: Record<string, unknown>): Payload {
  return { data: { nexi_reconcile: fields }, rawData: "", headers: {} }
}

describe("reconcile requests", () => {
  it("reads back a session request", () => {
    expect(readReconcileRequest(reconcileRequest("payses_1"))).toEqual({ sessionId: "payses_1" })
  })

  it("reads back a gateway-ref request", () => {
    expect(readReconcileRequest(attemptReconcileRequest("ORD123"))).toEqual({ gatewayRef: "ORD123" })
  })

  it("is shaped like a webhook payload with no raw body or headers", () => {
    const payload = reconcileRequest("payses_1")
    expect(payload.rawData).toBe("")
    expect(payload.headers).toEqual({})
    expect(body(payload)).toEqual({ session_id: "payses_1", gateway_ref: undefined, proof: expect.stringMatching(/^[0-9a-f]{64}$/) })
  })

  it("refuses a forged proof", () => {
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: "0".repeat(64) }))).toBeUndefined()
    const genuine = body(reconcileRequest("payses_1")).proof as string
    const flipped = (genuine[0] === "0" ? "1" : "0") + genuine.slice(1)
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: flipped }))).toBeUndefined()
  })

  it("refuses a proof of the right length that is not hex, and one of another length", () => {
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: "z".repeat(64) }))).toBeUndefined()
    const genuine = body(reconcileRequest("payses_1")).proof as string
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: genuine.slice(0, 62) }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: `${genuine}00` }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: "" }))).toBeUndefined()
    // Buffer.from(…, "hex") stops at the first stray character: a genuine proof with a tail, or in upper case, is still refused.
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: `${genuine}zz` }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: genuine.toUpperCase() }))).toBeUndefined()
  })

  it("refuses a proof made for another subject", () => {
    const proof = body(reconcileRequest("payses_1")).proof
    expect(readReconcileRequest(withBody({ session_id: "payses_2", proof }))).toBeUndefined()
    const refProof = body(attemptReconcileRequest("ORD1")).proof
    expect(readReconcileRequest(withBody({ gateway_ref: "ORD2", proof: refProof }))).toBeUndefined()
  })

  it("keeps session and gateway-ref proofs apart (domain separation)", () => {
    const sessionProof = body(reconcileRequest("X1")).proof
    const refProof = body(attemptReconcileRequest("X1")).proof
    expect(sessionProof).not.toBe(refProof)
    expect(readReconcileRequest(withBody({ gateway_ref: "X1", proof: sessionProof }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ session_id: "X1", proof: refProof }))).toBeUndefined()
  })

  it("reads a request naming both as a session request, checked against the session's proof", () => {
    const sessionProof = body(reconcileRequest("X1")).proof
    const refProof = body(attemptReconcileRequest("ORD1")).proof
    expect(readReconcileRequest(withBody({ session_id: "X1", gateway_ref: "ORD1", proof: sessionProof }))).toEqual({ sessionId: "X1" })
    expect(readReconcileRequest(withBody({ session_id: "X1", gateway_ref: "ORD1", proof: refProof }))).toBeUndefined()
  })

  it("refuses requests with missing or mistyped fields", () => {
    const proof = body(reconcileRequest("payses_1")).proof
    expect(readReconcileRequest(withBody({ session_id: "payses_1" }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ proof }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ session_id: 42, proof }))).toBeUndefined()
    expect(readReconcileRequest(withBody({ session_id: "payses_1", proof: 7 }))).toBeUndefined()
  })

  it("refuses payloads that are not reconcile requests", () => {
    expect(readReconcileRequest(undefined)).toBeUndefined()
    expect(readReconcileRequest({ data: undefined, rawData: "", headers: {} } as unknown as Payload)).toBeUndefined()
    expect(readReconcileRequest({ data: {}, rawData: "", headers: {} })).toBeUndefined()
    expect(readReconcileRequest({ data: { nexi_reconcile: null }, rawData: "", headers: {} })).toBeUndefined()
    expect(readReconcileRequest({ data: { nexi_reconcile: "session:payses_1" }, rawData: "", headers: {} })).toBeUndefined()
    expect(readReconcileRequest({ data: { other: body(reconcileRequest("payses_1")) }, rawData: "", headers: {} })).toBeUndefined()
  })
})
