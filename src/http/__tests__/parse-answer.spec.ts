import { OrderDetailsSchema } from "../../gateway/schemas"
import { UnexpectedResponseError } from "../errors"
import { formatFieldPath, parseAnswer } from "../parse-answer"

const endpoint = "GET /orders/{orderId}"
const order = { orderId: "A1", amount: "1999", currency: "EUR" }

function rejection(body: unknown): UnexpectedResponseError {
  try {
    parseAnswer(OrderDetailsSchema, body, "gateway", endpoint, 200)
  } catch (error) {
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    return error as UnexpectedResponseError
  }
  throw new Error("expected the answer to be refused")
}

describe("parseAnswer", () => {
  it("keeps unknown extra fields at every level", () => {
    const parsed = parseAnswer(
      OrderDetailsSchema,
      { orderStatus: { order: { ...order, newField: 1 }, extra: "x" }, operations: [], future: true },
      "gateway",
      endpoint,
      200,
    )
    expect(parsed).toMatchObject({ future: true, orderStatus: { extra: "x", order: { newField: 1 } } })
  })

  it("names the path of a wrongly typed field", () => {
    const error = rejection({ orderStatus: { order: { ...order, amount: "19.99" } } })
    expect(error.message).toMatch(
      /^Nexi gateway GET \/orders\/\{orderId\} answered 200 with an unexpected body: orderStatus\.order\.amount: must be a string of digits/,
    )
    expect(error.details[0].code).toBe("orderStatus.order.amount")
    expect(error.status).toBe(200)
  })

  it("names the path of a missing required field and of array members", () => {
    const error = rejection({
      orderStatus: { order: { orderId: "A1", currency: "EUR" } },
      operations: [{ operationAmount: 5 }],
    })
    expect(error.message).toContain("orderStatus.order.amount: is missing (expected string)")
    expect(error.message).toContain("operations[0].operationAmount: ")
  })

  it("does not echo the offending value", () => {
    const error = rejection({ orderStatus: { order: { ...order, amount: "secret-looking-4999340261977289" } } })
    expect(error.message).not.toContain("secret-looking")
  })

  it("refuses a body that is not JSON or is missing", () => {
    expect(rejection("<html>").message).toMatch(/answered 200 with a body that is not JSON$/)
    expect(rejection(undefined).message).toContain("(answer): is missing (expected object)")
  })

  it.each([
    [["a", "b"], "a.b"],
    [["list", 2, "x"], "list[2].x"],
    [[], "(answer)"],
  ])("formats %p as %s", (path, text) => expect(formatFieldPath(path)).toBe(text))
})
