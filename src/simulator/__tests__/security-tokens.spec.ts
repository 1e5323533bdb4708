/** GET /__sim/security-tokens: every notification token issued, kept across resets, for leak checks. */
import { setUpSimulator } from "./support/harness"

const harness = setUpSimulator()

async function listed(): Promise<string[]> {
  const answer = await harness.control("GET", "/security-tokens")
  expect(answer.status).toBe(200)
  return answer.body.securityTokens
}

describe("issued security tokens", () => {
  it("lists the token of every hosted order, including orders created before a reset", async () => {
    const before = await listed()
    const first = await harness.hostedOrder()
    await harness.control("POST", "/reset")
    const second = await harness.hostedOrder()
    expect(await listed()).toEqual([...before, first.securityToken, second.securityToken])
  })

  it("lists nothing for a refused hosted order or a MOTO payment, which carry no token", async () => {
    const before = await listed()
    const refused = await harness.gateway("POST", "/orders/hpp", {
      body: { order: { orderId: "X1", amount: "12.50", currency: "EUR" } },
    })
    expect(refused.status).toBe(400)
    await harness.moto()
    expect(await listed()).toEqual(before)
  })
})
