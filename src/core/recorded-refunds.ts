/**
 * The one convention for Medusa refunds that record money the gateway moved already, and so
 * are never sent to it: their metadata names the gateway operations they record. Written when
 * the plugin records a refund made in the gateway's back office (src/reconciliation) and when
 * staff cancel a capture (src/staff/cancel-capture.ts); read by both providers' refundPayment,
 * and by the back-office recording, which records each gateway operation once.
 */

/** The gateway operation (or operations, comma-separated, as earlier versions wrote) a refund records. */
export const NEXI_OPERATION_KEY = "nexi_operation_id"
/** A staff capture cancel, recorded as a refund: the gateway counts it as no REFUND. */
export const CANCELLED_CAPTURE_KEY = "nexi_cancelled_capture_id"

type Metadata = Record<string, unknown> | null | undefined

/** The gateway operations the refund records; none for a refund Medusa asked the provider to send. */
export function recordedOperationIds(metadata: Metadata): string[] {
  const recorded = metadata?.[NEXI_OPERATION_KEY]
  return recorded ? String(recorded).split(",").filter(Boolean) : []
}

export function isCancelledCapture(metadata: Metadata): boolean {
  return Boolean(metadata?.[CANCELLED_CAPTURE_KEY])
}

/** The metadata of a refund recording one gateway REFUND operation made outside Medusa. */
export function gatewayRefundMetadata(operationId: string): Record<string, string> {
  return { [NEXI_OPERATION_KEY]: operationId }
}
