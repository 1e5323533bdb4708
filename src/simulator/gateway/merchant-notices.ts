/**
 * The notification body the gateway POSTs to an order's notificationUrl (docs/contract/gateway.md).
 * Only hosted orders carry a notificationUrl and the securityToken that authenticates it.
 */
import { randomUUID } from "node:crypto"
import type { Notification } from "../../gateway/schemas"
import type { SimClock } from "../clock"
import type { DeliveryOutcome, NotificationSender } from "../notifications"
import type { OperationRecord, StoredOrder } from "./store"

export class MerchantNotices {
  constructor(
    private readonly sender: NotificationSender,
    private readonly clock: SimClock,
  ) {}

  /** Undefined when the order asked for no notifications. */
  notify(order: StoredOrder, operation: OperationRecord): Promise<DeliveryOutcome> | undefined {
    const url = order.hosted?.paymentSession.notificationUrl
    if (!order.hosted || !url) return undefined
    const notification: Notification = {
      eventId: randomUUID(),
      eventTime: this.clock.now().toISOString(),
      securityToken: order.hosted.securityToken,
      operation,
    }
    return this.sender.send(url, notification)
  }
}
