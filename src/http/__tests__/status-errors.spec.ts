import {
  AuthenticationError,
  GatewayUnavailableError,
  InvalidRequestError,
  NotFoundError,
  UnexpectedResponseError,
} from "../errors"
import { errorForStatus } from "../status-errors"

const details = [{ code: "PS0029", description: "refund greater than captured amount" }]

describe("errorForStatus", () => {
  it.each([
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [403, AuthenticationError],
    [404, NotFoundError],
    [429, GatewayUnavailableError],
    [500, GatewayUnavailableError],
    [503, GatewayUnavailableError],
    [409, UnexpectedResponseError],
  ])("maps %i to %p", (status, type) => {
    const error = errorForStatus("gateway", "POST /operations/{operationId}/refunds", status, details)
    expect(error).toBeInstanceOf(type)
    expect(error.status).toBe(status)
    expect(error.service).toBe("gateway")
    expect(error.details).toEqual(details)
    expect(error.hasCode("PS0029")).toBe(true)
    expect(error.message).toContain("Nexi gateway POST /operations/{operationId}/refunds answered")
    expect(error.message).toContain("PS0029 refund greater than captured amount")
  })

  it("tells the merchant which credentials to check", () => {
    expect(errorForStatus("gateway", "GET /orders", 401, []).message).toContain("check the API key")
    expect(errorForStatus("apm", "GET /x", 401, []).message).toContain("check the consumer key and secret")
  })
})
