/** The store (and, with a secret key, admin) API of a running Medusa, as a storefront calls it. */

class ApiError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`)
    this.status = status
  }
}

/**
 * @param {string} baseUrl
 * @param {Record<string, string>} headers sent on every call (the publishable key, or admin credentials)
 */
function apiClient(baseUrl, headers) {
  async function call(method, path, body) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    const parsed = text ? JSON.parse(text) : undefined
    if (!response.ok) throw new ApiError(method, path, response.status, parsed)
    return parsed
  }
  return { get: (path) => call("GET", path), post: (path, body = {}) => call("POST", path, body) }
}

/** @param {Record<string, string>} [headers] more headers on every call (the request probe's `x-bench-trace`) */
function storeApi(baseUrl, publishableKey, headers = {}) {
  return apiClient(baseUrl, { ...headers, "x-publishable-api-key": publishableKey })
}

/** Medusa accepts a secret API key as the user name of Basic authentication on admin routes. */
function adminApi(baseUrl, secretKey) {
  return apiClient(baseUrl, { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` })
}

module.exports = { adminApi, storeApi }
