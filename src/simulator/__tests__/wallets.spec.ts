/**
 * Google Pay and Apple Pay (paymentSession.paymentService) on the hosted page, a payment link
 * and a Build session: the page shows the wallet's button, and paying with it leaves the
 * operations of an approved frictionless card, named for the wallet's circuit.
 */
import { operationSteps, setUpSimulator } from "./support/harness"

const harness = setUpSimulator()
const FORM = { "content-type": "application/x-www-form-urlencoded" }

describe("the hosted page of a wallet", () => {
  it("shows the wallet's button, no card form, and pays as an approved card of the wallet's circuit", async () => {
    const hosted = await harness.hostedOrder({ paymentSession: { paymentService: "GOOGLEPAY" } })
    const page = await harness.call("GET", hosted.hostedPage)
    expect(page.body).toContain('data-wallet="GOOGLEPAY"')
    expect(page.body).toContain("Pay with Google Pay")
    expect(page.body).not.toContain('id="pan"')

    const paid = await harness.call("POST", hosted.hostedPage.replace("?token=", "/wallet?token="), {
      body: "",
      headers: FORM,
    })
    expect(paid.status).toBe(303)
    expect(paid.headers.get("location")).toBe("https://shop.example/result")
    const order = await harness.order(hosted.orderId)
    expect(operationSteps(order.body)).toEqual(["AUTHORIZATION/THREEDS_VALIDATED", "AUTHORIZATION/AUTHORIZED"])
    expect(order.body.operations.at(-1)).toMatchObject({
      paymentMethod: "APM",
      paymentCircuit: "GOOGLEPAY",
      paymentInstrumentInfo: "***7289",
    })
    expect(order.body.orderStatus.authorizedAmount).toBe("1999")
  })

  it("takes no card: the control API's payment uses the wallet too", async () => {
    const hosted = await harness.hostedOrder({
      paymentSession: { paymentService: "APPLEPAY", captureType: "IMPLICIT" },
    })
    const paid = await harness.payHosted(hosted.orderId, {})
    expect(paid.body.result).toBe("EXECUTED")
    expect((await harness.order(hosted.orderId)).body.operations.at(-1)).toMatchObject({
      operationType: "CAPTURE",
      paymentCircuit: "APPLEPAY",
    })
  })

  it.each([
    [
      "a saved card",
      { recurrence: { action: "CONTRACT_CREATION", contractId: "K1", contractType: "CIT" } },
      "recurrence",
    ],
    ["a verification", { actionType: "VERIFY", amount: "0" }, "actionType"],
  ])("is refused with %s", async (_case, session, named) => {
    const answer = await harness.gateway("POST", "/orders/hpp", {
      body: {
        order: { orderId: harness.newOrderId(), amount: "1999", currency: "EUR", customerId: "c1" },
        paymentSession: { amount: "1999", language: "eng", paymentService: "GOOGLEPAY", ...session },
      },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ description: expect.stringContaining(`paymentSession.${named}`) }),
      ]),
    )
  })
})

describe("a payment link of a wallet", () => {
  it("is paid with the wallet, and the operation pays the link", async () => {
    const answer = await harness.gateway("POST", "/orders/paybylink", {
      body: {
        order: { orderId: harness.newOrderId(), amount: "500", currency: "EUR" },
        paymentSession: { actionType: "PAY", amount: "500", language: "eng", paymentService: "APPLEPAY" },
        expirationDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      },
    })
    expect(answer.status).toBe(200)
    const { linkId, link } = answer.body.paymentLink
    expect((await harness.call("GET", link)).body).toContain("Pay with Apple Pay")
    const paid = await harness.control("POST", `/paybylink/${linkId}/pay`, {})
    expect(paid.body.result).toBe("AUTHORIZED")
    expect(paid.body.operations.at(-1)).toMatchObject({ paymentCircuit: "APPLEPAY", paymentLinkId: linkId })
  })
})

describe("a Build session of a wallet", () => {
  it("sends the shopper to the wallet's page, then back to resultUrl; finalize is not for it", async () => {
    const orderId = harness.newOrderId()
    const built = await harness.gateway("POST", "/orders/build", {
      body: {
        merchantUrl: "https://shop.example",
        order: { orderId, amount: "1999", currency: "EUR" },
        paymentSession: {
          amount: "1999",
          language: "eng",
          resultUrl: "https://shop.example/result",
          paymentService: "GOOGLEPAY",
        },
      },
    })
    expect(built.body).toEqual({
      sessionId: expect.any(String),
      securityToken: expect.any(String),
      state: "REDIRECTED_TO_EXTERNAL_DOMAIN",
      url: expect.stringContaining(`/hpp/${orderId}?token=`),
    })
    const { sessionId, url } = built.body
    const finalize = await harness.gateway("POST", "/build/finalize_payment", { body: { sessionId } })
    expect(finalize.body.errors[0].description).toContain("pays with GOOGLEPAY")

    expect((await harness.call("GET", url)).body).toContain('data-wallet="GOOGLEPAY"')
    const paid = await harness.call("POST", url.replace("?token=", "/wallet?token="), { body: "", headers: FORM })
    expect(paid.headers.get("location")).toBe("https://shop.example/result")
    const state = await harness.gateway("GET", `/build/state?sessionId=${encodeURIComponent(sessionId)}`)
    expect(state.body).toEqual({
      state: "PAYMENT_COMPLETE",
      operation: expect.objectContaining({ operationResult: "AUTHORIZED", paymentCircuit: "GOOGLEPAY" }),
    })
  })
})
