/** What every card gateway handler works with. */
import type { SimClock } from "../clock"
import type { SimRequest } from "../http-types"
import type { IssuedTokens } from "../issued-tokens"
import type { MerchantNotices } from "./merchant-notices"
import type { RefundSettler } from "./refund-settlement"
import type { GatewayStore } from "./store"

export interface GatewayContext {
  store: GatewayStore
  clock: SimClock
  notices: MerchantNotices
  refunds: RefundSettler
  /** Base address browsers use to reach the simulator (hosted pages, logos). */
  publicUrl: string
  /** Security tokens handed out, for the control API's leak checks. */
  issuedTokens: IssuedTokens
}

export interface GatewayCall {
  req: SimRequest
  /** The authenticated merchant (a hash of its API key). */
  merchantId: string
  /** Path parameters, in the order of the route's pattern. */
  params: string[]
}
