/** GET /payment_methods and the logos it links to. */
import { setUpSimulator } from "./support/harness"

const harness = setUpSimulator()

describe("GET /payment_methods", () => {
  it("lists the card circuits and a few APMs with logos the simulator serves", async () => {
    const answer = await harness.gateway("GET", "/payment_methods")
    expect(answer.status).toBe(200)
    const methods = answer.body.paymentMethods as { circuit: string; methodType: string; imageLink: string }[]
    expect(methods.filter((method) => method.methodType === "CARD").map((method) => method.circuit)).toEqual([
      "VISA",
      "MC",
      "MAESTRO",
      "AMEX",
    ])
    expect(methods.some((method) => method.methodType === "APM")).toBe(true)
    for (const method of methods) {
      expect(method.imageLink.startsWith(`${harness.sim.publicUrl}/assets/logos/`)).toBe(true)
      const logo = await harness.call("GET", method.imageLink)
      expect(logo.status).toBe(200)
      expect(logo.headers.get("content-type")).toBe("image/svg+xml")
      expect(logo.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    }
    expect(methods[0]).toMatchObject({ recurringSupported: true, oneClickSupported: true })
  })

  it("answers 404 for an unknown logo", async () => {
    expect((await harness.call("GET", `${harness.sim.url}/assets/logos/unknown.svg`)).status).toBe(404)
  })

  it("requires authentication", async () => {
    expect((await harness.gateway("GET", "/payment_methods", { apiKey: null })).status).toBe(401)
  })
})
