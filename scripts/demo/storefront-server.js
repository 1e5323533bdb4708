/**
 * The demo storefront's web server: the static page in storefront/public (plain HTML and
 * JavaScript modules, no build step), the storefront kit's modules under /kit/ (compiled from
 * storefront/src when it changed) and /config.json, which tells the page where the store API
 * is, which publishable key to send and the card fields SDK's integrity. Every page path of
 * the checkout answers the same index.html; the page picks its view from the path.
 */
const fs = require("node:fs")
const http = require("node:http")
const path = require("node:path")
const { compileStorefrontKit, KIT_DIST } = require("./storefront-kit")

const PUBLIC_DIR = path.join(__dirname, "storefront", "public")

/** The paths the page has views for; the provider's return pages (a cart's and a payment link's) are among them. */
const PAGE_PATHS = new Set([
  "/",
  "/checkout",
  "/checkout/nexi/result",
  "/checkout/mobile",
  "/order",
  "/nexi/payment-link",
  "/account",
  "/account/login",
])

const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
}

function securityHeaders(backendUrl, gatewayOrigin) {
  return {
    // The page talks to the store API only; logos may come from anywhere a store configures.
    // Scripts and frames: its own, and the gateway's card fields SDK and fields (XPay Build), nothing else.
    "content-security-policy": `default-src 'self'; script-src 'self' ${gatewayOrigin}; frame-src ${gatewayOrigin}; connect-src 'self' ${backendUrl}; img-src 'self' data: https: http:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
  }
}

/** A file under `dir` for a URL path, or undefined (no escaping the folder). */
function fileUnder(dir, urlPath) {
  const file = path.join(dir, path.normalize(urlPath))
  if (!file.startsWith(dir + path.sep)) return undefined
  return fs.existsSync(file) && fs.statSync(file).isFile() ? file : undefined
}

/** The page's own files, and the storefront kit's compiled modules under /kit/. */
function staticFile(urlPath) {
  return urlPath.startsWith("/kit/")
    ? fileUnder(KIT_DIST, urlPath.slice("/kit".length))
    : fileUnder(PUBLIC_DIR, urlPath)
}

/**
 * @param {{ port: number, config: { backendUrl: string, publishableKey: string, adminUrl: string, simulatorUrl: string, sdkIntegrity: string } }} options
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function startStorefront({ port, config }) {
  await compileStorefrontKit()
  const headers = securityHeaders(config.backendUrl, new URL(config.simulatorUrl).origin)
  const server = http.createServer((req, res) => {
    let urlPath
    try {
      urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://storefront.invalid").pathname)
    } catch {
      res.writeHead(400, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("Bad path encoding")
      return
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { ...headers, allow: "GET, HEAD" }).end()
      return
    }
    if (urlPath === "/config.json") {
      res.writeHead(200, { ...headers, "content-type": "application/json" }).end(JSON.stringify(config))
      return
    }
    const file = PAGE_PATHS.has(urlPath.replace(/(.)\/+$/, "$1"))
      ? path.join(PUBLIC_DIR, "index.html")
      : staticFile(urlPath)
    if (!file) {
      res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("Not found")
      return
    }
    res.writeHead(200, { ...headers, "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream" })
    res.end(req.method === "HEAD" ? undefined : fs.readFileSync(file))
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", resolve)
  })
  return {
    url: `http://localhost:${server.address().port}`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

module.exports = { startStorefront }
