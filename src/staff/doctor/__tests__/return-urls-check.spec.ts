import type { NexiOptions } from "../../../core/options"
import type { DoctorContext } from "../check"
import { returnUrlsCheck } from "../return-urls-check"

// A pure check: it reads two options, so a context holding only those is enough.
const run = (resultUrl: string, cancelUrl: string) =>
  returnUrlsCheck.run({ options: { resultUrl, cancelUrl } as NexiOptions } as DoctorContext)

const RESULT = "https://shop.example.com/checkout/nexi/result?cart_id={cart_id}"
const CANCEL = "https://shop.example.com/checkout?cart_id={cart_id}"

describe("return URLs check", () => {
  it("passes https URLs carrying {cart_id} or {session_id}", async () => {
    expect(await run(RESULT, CANCEL)).toMatchObject({ status: "pass" })
    expect(await run("https://shop.example.com/r/{session_id}", CANCEL)).toMatchObject({ status: "pass" })
  })

  it("fails an http result URL, naming the option", async () => {
    const finding = await run("http://localhost:8000/checkout/nexi/result?cart_id={cart_id}", CANCEL)
    expect(finding.status).toBe("fail")
    expect(finding.detail).toMatch(/resultUrl http:\/\/localhost:8000\S* uses http, not https/)
    expect(finding.detail).not.toMatch(/cancelUrl/)
    expect(finding.fix).toMatch(/\{cart_id\}/)
  })

  it("fails a cancel URL without a placeholder", async () => {
    const finding = await run(RESULT, "https://shop.example.com/checkout")
    expect(finding.status).toBe("fail")
    expect(finding.detail).toBe(
      "cancelUrl https://shop.example.com/checkout carries neither {cart_id} nor {session_id}.",
    )
  })

  it("warns about an https URL on a host shoppers cannot reach", async () => {
    const finding = await run("https://localhost/result?cart_id={cart_id}", CANCEL)
    expect(finding.status).toBe("warn")
    expect(finding.detail).toMatch(/resultUrl: localhost is this machine/)
  })
})
