/** The hosted payment page over plain HTTP (forms, redirects); browser-tests/ drives it in Chromium. */
import { operationSteps, setUpSimulator } from "./support/harness"
import { CARDS } from "./support/test-cards"

const harness = setUpSimulator()
const FORM = { "content-type": "application/x-www-form-urlencoded" }

async function openPage(overrides: Parameters<typeof harness.hostedOrder>[0] = {}) {
  const hosted = await harness.hostedOrder(overrides)
  const token = new URL(hosted.hostedPage).searchParams.get("token")!
  const at = (step: string) => `${harness.sim.url}/hpp/${hosted.orderId}${step}?token=${token}`
  const post = (step: string, fields: Record<string, string>) =>
    harness.call("POST", at(step), { body: new URLSearchParams(fields).toString(), headers: FORM })
  return { ...hosted, at, post }
}

const cardFields = (card: { pan: string; cvv: string }, expiry = "12/30") => ({
  pan: card.pan,
  expiry,
  cvv: card.cvv,
  holder: "Ada Lovelace",
})

describe("the payment page", () => {
  it("shows the amount with the currency's decimals and the escaped description", async () => {
    const page = await openPage({ order: { description: "Mugs <script>alert(1)</script>" } })
    const shown = await harness.call("GET", page.hostedPage)
    expect(shown.status).toBe(200)
    expect(shown.headers.get("content-type")).toMatch(/text\/html/)
    expect(shown.body).toContain("19.99 EUR")
    expect(shown.body).toContain("Mugs &#60;script&#62;")
    expect(shown.body).not.toContain("<script>")
    expect(shown.body).not.toContain(page.securityToken)
    expect(shown.body).not.toMatch(/<link|<script|src=/)
  })

  it.each([
    ["JPY", "5000", "5000 JPY"],
    ["KWD", "1234", "1.234 KWD"],
  ])("formats %s amounts with their exponent", async (currency, amount, text) => {
    const page = await openPage({ order: { currency, amount }, paymentSession: { amount } })
    expect((await harness.call("GET", page.hostedPage)).body).toContain(text)
  })

  it("answers 404 with a wrong token or order id", async () => {
    const page = await openPage()
    expect((await harness.call("GET", `${harness.sim.url}/hpp/${page.orderId}?token=wrong`)).status).toBe(404)
    expect((await harness.call("GET", page.hostedPage.replace(page.orderId, "OTHER"))).status).toBe(404)
    expect((await harness.call("GET", page.hostedPage.replace("token=", "nottoken="))).status).toBe(404)
  })
})

describe("the page's language: the order's paymentSession.language", () => {
  const htmlTag = (body: string) => /<html [^>]*>/.exec(body)?.[0]

  it("says it in English for eng", async () => {
    const page = await openPage({ paymentSession: { language: "eng" } })
    const shown = (await harness.call("GET", page.hostedPage)).body
    expect(htmlTag(shown)).toBe('<html lang="en" data-language="eng">')
    expect(shown).toContain("<title>Payment</title>")
    expect(shown).toContain('<label for="pan">Card number</label>')
    expect(shown).toContain('id="pay">Pay 19.99 EUR</button>')
  })

  it("says it in Italian for ita, through the challenge to a failure", async () => {
    const page = await openPage({ paymentSession: { language: "ita" } })
    const shown = (await harness.call("GET", page.hostedPage)).body
    expect(htmlTag(shown)).toBe('<html lang="it" data-language="ita">')
    expect(shown).toContain("<title>Pagamento</title>")
    expect(shown).toContain('<label for="pan">Numero della carta</label>')
    expect(shown).toContain('id="pay">Paga 19.99 EUR</button>')
    expect(shown).toContain("Annulla e torna al negozio")
    expect(shown).toContain('placeholder="MM/AA"')
    expect(shown).not.toContain("Card number")

    const refused = await page.post("/pay", cardFields(CARDS.notLuhn))
    expect(refused.status).toBe(400)
    expect(refused.body).toContain("Numero della carta non valido: ")

    await page.post("/pay", cardFields(CARDS.challenge, "05/30"))
    const challenge = (await harness.call("GET", page.at("/challenge"))).body
    expect(challenge).toContain("La tua banca ti chiede di confermare questo pagamento.")
    const failed = await page.post("/challenge", { outcome: "fail" })
    expect(htmlTag(failed.body)).toBe('<html lang="it" data-language="ita">')
    expect(failed.body).toContain("L&#39;autenticazione 3-D Secure non è riuscita.")
    expect(failed.body).toContain(">Torna al negozio</a>")
  })

  it("keeps the lang of a language it has no words for, and reads English", async () => {
    const page = await openPage({ paymentSession: { language: "deu" } })
    const shown = (await harness.call("GET", page.hostedPage)).body
    expect(htmlTag(shown)).toBe('<html lang="de" data-language="deu">')
    expect(shown).toContain('<label for="pan">Card number</label>')
  })
})

describe("paying through the forms", () => {
  it("redirects (303) to resultUrl after an approval", async () => {
    const page = await openPage()
    const paid = await page.post("/pay", cardFields(CARDS.approved))
    expect(paid.status).toBe(303)
    expect(paid.headers.get("location")).toBe("https://shop.example/result")
    expect(operationSteps((await harness.order(page.orderId)).body)).toEqual([
      "AUTHORIZATION/THREEDS_VALIDATED",
      "AUTHORIZATION/AUTHORIZED",
    ])
  })

  it("goes through the 3DS challenge page for a challenge card", async () => {
    const page = await openPage()
    const submitted = await page.post("/pay", cardFields(CARDS.challenge, "05/30"))
    expect(submitted.status).toBe(303)
    expect(submitted.headers.get("location")).toBe(
      new URL(page.at("/challenge")).pathname + new URL(page.at("/challenge")).search,
    )
    const challenge = await harness.call("GET", page.at("/challenge"))
    expect(challenge.body).toContain("Approve")
    expect(challenge.body).toContain("Fail authentication")
    // Reloading the page itself shows the challenge again rather than a new card form.
    expect((await harness.call("GET", page.hostedPage)).body).toContain("Fail authentication")
    const approved = await page.post("/challenge", { outcome: "pass" })
    expect(approved.status).toBe(303)
    expect(approved.headers.get("location")).toBe("https://shop.example/result")
  })

  it("shows a failed challenge with a way back to the merchant", async () => {
    const page = await openPage()
    await page.post("/pay", cardFields(CARDS.challenge, "05/30"))
    const failed = await page.post("/challenge", { outcome: "fail" })
    expect(failed.status).toBe(200)
    expect(failed.body).toContain("3-D Secure authentication failed")
    expect(failed.body).toContain('href="https://shop.example/result"')
    expect(operationSteps((await harness.order(page.orderId)).body)).toEqual(["AUTHORIZATION/THREEDS_FAILED"])
  })

  it("shows a decline with a way back to the merchant", async () => {
    const page = await openPage()
    const declined = await page.post("/pay", cardFields(CARDS.declined))
    expect(declined.status).toBe(200)
    expect(declined.body).toContain("declined")
    expect(declined.body).toContain('href="https://shop.example/result"')
  })

  it("shows the approval itself when the merchant gave no resultUrl", async () => {
    const page = await openPage({ paymentSession: { resultUrl: undefined } })
    const paid = await page.post("/pay", cardFields(CARDS.approved))
    expect(paid.status).toBe(200)
    expect(paid.body).toContain("Payment approved")
  })

  it("says Verify card for actionType VERIFY, shows no amount and confirms the verification", async () => {
    const page = await openPage({ paymentSession: { actionType: "VERIFY", resultUrl: undefined } })
    const shown = (await harness.call("GET", page.hostedPage)).body
    expect(shown).toContain('<button type="submit" id="pay">Verify card</button>')
    expect(shown).not.toContain("19.99 EUR")
    const verified = await page.post("/pay", cardFields(CARDS.approved))
    expect(verified.body).toContain("Card verified. Nothing was charged.")
  })

  it("shows the card error on the form and lets the shopper correct it", async () => {
    const page = await openPage()
    const refused = await page.post("/pay", cardFields(CARDS.notLuhn))
    expect(refused.status).toBe(400)
    expect(refused.body).toContain("Card number is not a valid card number")
    expect((await page.post("/pay", cardFields(CARDS.approved))).status).toBe(303)
  })

  it("redirects to cancelUrl on cancel", async () => {
    const page = await openPage()
    const cancelled = await page.post("/cancel", {})
    expect(cancelled.status).toBe(303)
    expect(cancelled.headers.get("location")).toBe("https://shop.example/cancel")
  })

  it("refuses a second payment once paid", async () => {
    const page = await openPage()
    await page.post("/pay", cardFields(CARDS.approved))
    const again = await page.post("/pay", cardFields(CARDS.approved))
    expect(again.status).toBe(409)
    expect(again.body).toContain("cannot be paid again")
    expect((await harness.call("GET", page.hostedPage)).status).toBe(409)
    expect((await harness.order(page.orderId)).body.operations).toHaveLength(2)
  })
})
