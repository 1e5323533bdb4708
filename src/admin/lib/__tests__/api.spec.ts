import { messageOf, NexiAdminRequestError, requestErrorOf } from "../api-errors"
import { adminApiUrl, backendUrl } from "../api-url"

describe("requestErrorOf", () => {
  it("keeps the route's message and type, which already say what the gateway refused", () => {
    const error = requestErrorOf(
      409,
      JSON.stringify({
        type: "not_allowed",
        message: "Nexi refused the cancel: PS0002 cancel allowed only on the same day",
      }),
    )
    expect(error).toBeInstanceOf(NexiAdminRequestError)
    expect(error.status).toBe(409)
    expect(error.type).toBe("not_allowed")
    expect(error.message).toBe("Nexi refused the cancel: PS0002 cancel allowed only on the same day")
  })

  it("explains an expired session and a missing plugin route in words", () => {
    expect(requestErrorOf(401, "Unauthorized").message).toMatch(/session has expired/)
    expect(requestErrorOf(404, "<html>Cannot GET</html>").message).toMatch(/plugin registered/)
  })

  it("names the status when the body says nothing usable", () => {
    expect(requestErrorOf(502, "").message).toBe("The server answered 502 without an explanation.")
    expect(requestErrorOf(500, JSON.stringify({ type: "unknown_error", message: "  " })).message).toMatch(
      /answered 500/,
    )
    expect(requestErrorOf(500, "null").type).toBeNull()
  })

  it("messageOf reads any thrown value", () => {
    expect(messageOf(new Error("boom"))).toBe("boom")
    expect(messageOf("boom")).toMatch(/try again/)
  })
})

describe("adminApiUrl", () => {
  it.each([
    ["", "/admin/nexi/payment-methods", "/admin/nexi/payment-methods"],
    ["/", "/admin/nexi/payment-methods", "/admin/nexi/payment-methods"],
    ["https://shop.example.com", "/admin/nexi/payment-methods", "https://shop.example.com/admin/nexi/payment-methods"],
    [
      "https://shop.example.com/api/",
      "admin/nexi/payment-methods",
      "https://shop.example.com/api/admin/nexi/payment-methods",
    ],
  ])("joins %j and %j without a protocol-relative //", (base, path, url) => {
    expect(adminApiUrl(base, path)).toBe(url)
  })

  it("stays relative outside an admin build, where __BACKEND_URL__ is not defined", () => {
    expect(backendUrl()).toBe("")
  })
})
