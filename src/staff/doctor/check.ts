/**
 * What every doctor check is given and answers. The checks take the entry's parsed options and
 * its clients (core/clients.ts), so they see the gateway exactly as the providers do;
 * the answer's words go to a merchant as they are, so they never carry a secret. Apart from the
 * run (run-doctor.ts), which imports the checks that import this: one module would be a circle.
 */
import type { NexiClients } from "../../core/clients"
import type { NexiOptions } from "../../core/options"
import type { GatewayClient } from "../../gateway/gateway-client"
import type { PaymentMethodList } from "../../gateway/schemas"
import type { NexiDoctorCheck } from "../contract"

export interface DoctorInput {
  options: NexiOptions
  clients: NexiClients
  /** The store's region currencies (any case); undefined when they are not known (the CLI without --currency). */
  currencies?: readonly string[]
  /** Milliseconds since the epoch; the clock check's tests move it. */
  now?: () => number
  /** The clock check's plain request for the gateway's Date header. */
  fetch?: typeof fetch
}

export type DoctorContext = Required<Omit<DoctorInput, "currencies">> & {
  currencies: readonly string[] | undefined
  /** GET /payment_methods, read once: the API key check and the currency check both need it. */
  paymentMethods: () => Promise<PaymentMethodsRead>
}

/** A check's finding, without its id and title (the check's definition holds those). */
export type Finding = Pick<NexiDoctorCheck, "status" | "detail" | "fix">

export interface DoctorCheck {
  id: string
  title: string
  /** A failure of this check stops a store from going live. */
  blocking: boolean
  run(context: DoctorContext): Promise<Finding> | Finding
}

export const pass = (detail: string): Finding => ({ status: "pass", detail })
export const warn = (detail: string, fix?: string): Finding =>
  fix ? { status: "warn", detail, fix } : { status: "warn", detail }
export const fail = (detail: string, fix: string): Finding => ({ status: "fail", detail, fix })

/** One read of GET /payment_methods for the whole run, kept with its failure rather than thrown. */
export type PaymentMethodsRead = { ok: true; list: PaymentMethodList } | { ok: false; error: unknown }

export function readPaymentMethodsOnce(gateway: GatewayClient): () => Promise<PaymentMethodsRead> {
  let read: Promise<PaymentMethodsRead> | undefined
  return () => {
    read ??= gateway.listPaymentMethods().then(
      (list): PaymentMethodsRead => ({ ok: true, list }),
      (error: unknown): PaymentMethodsRead => ({ ok: false, error }),
    )
    return read
  }
}
