/**
 * The simulator's control API (docs/simulator.md), as the bench uses it: play the shopper,
 * read the request log and notifications, set latency. Control calls are not recorded by
 * the simulator, so they never count as gateway requests.
 */

async function call(controlUrl, method, path, body) {
  const response = await fetch(`${controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`simulator control ${method} ${path} answered ${response.status}: ${text}`)
  return text ? JSON.parse(text) : undefined
}

/** A VISA test card the simulator approves without a 3-D Secure challenge (docs/simulator.md). */
const APPROVED_CARD = { pan: "4999340261977289", expiryDate: "1230", cvv: "663" }

function simControl(controlUrl) {
  return {
    reset: () => call(controlUrl, "POST", "/reset", {}),
    setLatency: (ms) => call(controlUrl, "POST", "/latency", { ms }),
    /** Pays a hosted order as the shopper would on the page; the notification goes out in the background. */
    payHostedOrder: (orderId, { awaitNotification = false } = {}) =>
      call(controlUrl, "POST", `/hpp/${encodeURIComponent(orderId)}/pay`, { ...APPROVED_CARD, awaitNotification }),
    approveApm: (transactionId) => call(controlUrl, "POST", `/apm/${encodeURIComponent(transactionId)}/approve`, {}),
    requests: () => call(controlUrl, "GET", "/requests"),
    notifications: () => call(controlUrl, "GET", "/notifications"),
    flushNotifications: () => call(controlUrl, "POST", "/notifications/flush", {}),
    /** The next `count` notifications are not sent (docs/simulator.md, notification faults). */
    dropNotifications: (count) => call(controlUrl, "POST", "/faults/notifications", { drop: count }),
    clearNotificationFaults: () => call(controlUrl, "DELETE", "/faults/notifications"),
  }
}

module.exports = { simControl }
