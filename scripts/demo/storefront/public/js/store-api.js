/**
 * The Medusa store API as this storefront uses it: every call carries the publishable key,
 * and the logged-in customer's token when there is one (customer.js); an error answer becomes
 * an Error with Medusa's message (which names the field at fault).
 */

export class StoreApiError extends Error {
  constructor(message, status, body) {
    super(message)
    this.status = status
    this.body = body
  }
}

/** customerToken: () => the logged-in customer's token, or null for a guest. */
export function createStoreApi({ backendUrl, publishableKey, customerToken }) {
  async function call(method, path, body) {
    const token = customerToken()
    const response = await fetch(`${backendUrl}${path}`, {
      method,
      headers: {
        "x-publishable-api-key": publishableKey,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await response.text()
    const data = text ? JSON.parse(text) : {}
    if (!response.ok)
      throw new StoreApiError(data.message ?? `${method} ${path} answered ${response.status}`, response.status, data)
    return data
  }
  return {
    get: (path) => call("GET", path),
    post: (path, body = {}) => call("POST", path, body),
    delete: (path) => call("DELETE", path),
  }
}
