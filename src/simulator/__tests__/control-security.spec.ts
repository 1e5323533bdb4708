/**
 * The control API is for local test code, not for web pages open in the developer's browser:
 * Host (DNS rebinding), Origin and Content-Type checks, no CORS. The hosted page and the APM
 * phone page, which browsers do use, answer any Host.
 */
import { request } from "node:http"
import { setUpSimulator } from "./support/harness"

const PUBLIC_URL = "http://sim.example.test:8443"
const harness = setUpSimulator({ publicUrl: PUBLIC_URL })

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** node:http, because fetch always sends the Host of the URL it is given. */
function raw(method: string, url: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on("error", reject)
    req.end(body)
  })
}

const control = (path: string) => harness.sim.controlUrl + path
const port = () => new URL(harness.sim.url).port

async function orderExists(orderId: string): Promise<boolean> {
  return (await harness.order(orderId)).status === 200
}

describe("Host header", () => {
  it("refuses a foreign Host with 403 naming it, and the request does nothing", async () => {
    const { orderId } = await harness.hostedOrder()
    const answer = await raw("POST", control("/reset"), { host: `rebound.example:${port()}` })
    expect(answer.status).toBe(403)
    const body = JSON.parse(answer.text)
    expect(body.errors[0].code).toBe("SIM0403")
    expect(body.errors[0].description).toContain(`rebound.example:${port()}`)
    expect(await orderExists(orderId)).toBe(true)
  })

  it("refuses a foreign Host on reads too (security tokens)", async () => {
    const answer = await raw("GET", control("/security-tokens"), { host: "rebound.example" })
    expect(answer.status).toBe(403)
    expect(answer.text).not.toContain("securityTokens")
  })

  it("refuses a Host that only embeds a loopback address", async () => {
    for (const host of ["evil.example@127.0.0.1", "127.0.0.1.evil.example", "localhost.evil.example:4010"]) {
      expect((await raw("GET", control("/faults"), { host })).status).toBe(403)
    }
  })

  it("accepts loopback hosts with any port", async () => {
    for (const host of [
      "localhost",
      `localhost:${port()}`,
      "127.0.0.1",
      "127.3.2.1:9",
      `[::1]:${port()}`,
      "LOCALHOST:1",
    ]) {
      const answer = await raw("GET", control("/latency"), { host })
      expect({ host, status: answer.status }).toEqual({ host, status: 200 })
    }
  })

  it("accepts the host of the configured publicUrl", async () => {
    const { orderId } = await harness.hostedOrder()
    for (const host of ["sim.example.test:8443", "sim.example.test"]) {
      expect((await raw("GET", control("/latency"), { host })).status).toBe(200)
    }
    expect((await raw("POST", control("/reset"), { host: "sim.example.test:8443" })).status).toBe(200)
    expect(await orderExists(orderId)).toBe(false)
  })
})

describe("Origin header", () => {
  it("refuses a cross-site POST without a body (a page's no-cors fetch or form)", async () => {
    const { orderId } = await harness.hostedOrder()
    const answer = await raw("POST", control("/reset"), { host: `127.0.0.1:${port()}`, origin: "https://evil.example" })
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.text).errors[0].description).toContain("https://evil.example")
    expect(await orderExists(orderId)).toBe(true)
  })

  it("refuses an opaque origin", async () => {
    expect((await raw("POST", control("/reset"), { host: "localhost", origin: "null" })).status).toBe(403)
  })

  it("accepts a loopback or publicUrl origin", async () => {
    expect(
      (await raw("GET", control("/latency"), { host: "localhost", origin: `http://localhost:${port()}` })).status,
    ).toBe(200)
    expect((await raw("GET", control("/latency"), { host: "localhost", origin: PUBLIC_URL })).status).toBe(200)
  })
})

describe("Content-Type", () => {
  it("refuses a text/plain body with 415 naming it, and the request does nothing", async () => {
    const answer = await raw(
      "POST",
      control("/latency"),
      { "content-type": "text/plain;charset=UTF-8" },
      JSON.stringify({ ms: 250 }),
    )
    expect(answer.status).toBe(415)
    const body = JSON.parse(answer.text)
    expect(body.errors[0].code).toBe("SIM0415")
    expect(body.errors[0].description).toContain("text/plain;charset=UTF-8")
    expect((await harness.control("GET", "/latency")).body).toEqual({ ms: 0 })
  })

  it("refuses form and missing content types for a fault", async () => {
    const fault = JSON.stringify({ match: { path: "/api/*" }, action: { type: "hang" } })
    const form = await raw("POST", control("/faults"), { "content-type": "application/x-www-form-urlencoded" }, fault)
    expect(form.status).toBe(415)
    const none = await raw("POST", control("/faults"), {}, fault)
    expect(none.status).toBe(415)
    expect(JSON.parse(none.text).errors[0].description).toContain('"none"')
    expect((await harness.control("GET", "/faults")).body.faults).toEqual([])
  })

  it("accepts application/json with parameters", async () => {
    const answer = await raw(
      "POST",
      control("/latency"),
      { "content-type": "application/json; charset=utf-8" },
      '{"ms":5}',
    )
    expect(answer.status).toBe(200)
    expect((await harness.control("GET", "/latency")).body).toEqual({ ms: 5 })
  })

  it("lets a request without a body omit it", async () => {
    const { orderId } = await harness.hostedOrder()
    const reset = await fetch(control("/reset"), { method: "POST" })
    expect(reset.status).toBe(200)
    expect(await orderExists(orderId)).toBe(false)
    expect((await fetch(control("/faults"), { method: "DELETE" })).status).toBe(200)
  })
})

describe("CORS", () => {
  it("answers a preflight without any Access-Control-Allow header", async () => {
    const answer = await raw("OPTIONS", control("/reset"), {
      host: `localhost:${port()}`,
      origin: "https://evil.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    })
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(Object.keys(answer.headers).filter((name) => name.startsWith("access-control-"))).toEqual([])
  })

  it("sends no CORS header on a served control answer", async () => {
    const answer = await raw("GET", control("/latency"), { host: "localhost" })
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.headers).filter((name) => name.startsWith("access-control-"))).toEqual([])
  })
})

describe("pages browsers use", () => {
  it("serve the hosted page for any Host", async () => {
    const { hostedPage } = await harness.hostedOrder()
    const local = new URL(hostedPage.replace(PUBLIC_URL, harness.sim.url))
    const answer = await raw("GET", local.href, { host: "shop-tunnel.example" })
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toContain("text/html")
  })

  it("do not apply the control checks to the APM phone page", async () => {
    const answer = await raw("GET", `${harness.sim.url}/apm/phone/123456`, {
      host: "phone.example",
      origin: "https://phone.example",
    })
    expect(answer.status).not.toBe(403)
  })
})
