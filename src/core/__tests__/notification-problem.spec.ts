/** What the warning about a body that is not a gateway notification says is wrong with it. */
import { NotificationSchema } from "../../gateway/schemas"
import { notificationProblem } from "../notification-body"

const valid = {
  eventId: "6b2d1c2e-0c4f-4a53-9a34-2f0b1d8f5e11",
  eventTime: "2025-03-01T10:00:00.000Z",
  securityToken: "a-token",
  operation: {
    orderId: "ORD123",
    operationType: "AUTHORIZATION",
    operationResult: "AUTHORIZED",
    operationAmount: "1999",
  },
}

/** As Medusa's webhook route passes a JSON body: parsed, and the raw bytes beside it. */
const asJson = (body: unknown) => ({ headers: {}, data: body, rawData: Buffer.from(JSON.stringify(body)) }) as never

describe("notificationProblem", () => {
  it("names the field and what is wrong with it, without the value sent", () => {
    const problem = notificationProblem(
      asJson({ ...valid, operation: { ...valid.operation, orderId: 4999340261977289 } }),
      NotificationSchema,
    )
    expect(problem).toMatch(/^operation\.orderId: .*expected string, received number$/)
    expect(problem).not.toContain("4999340261977289")
  })

  it("names missing members and wrong members together, at most three", () => {
    const problem = notificationProblem(asJson({ operation: "CAPTURE", eventTime: { day: 1 } }), NotificationSchema)
    expect(problem.split("; ").map((part) => part.split(":")[0])).toEqual(["eventId", "eventTime", "securityToken"])
  })

  it("says so when the body is not JSON or too large to read", () => {
    expect(
      notificationProblem({ headers: {}, data: {}, rawData: Buffer.from("{not json") } as never, NotificationSchema),
    ).toBe("the body is not JSON")
    const huge = Buffer.from(JSON.stringify({ ...valid, padding: "x".repeat(70 * 1024) }))
    expect(notificationProblem({ headers: {}, data: {}, rawData: huge } as never, NotificationSchema)).toBe(
      "the body is larger than 64 KiB",
    )
  })

  it("reads the raw JSON when Medusa parsed nothing (a body sent as plain text)", () => {
    const body = { ...valid, securityToken: 12345 }
    const problem = notificationProblem(
      { headers: {}, data: {}, rawData: Buffer.from(JSON.stringify(body)) } as never,
      NotificationSchema,
    )
    expect(problem).toMatch(/^securityToken: .*expected string, received number$/)
  })

  it("describes the parsed body when there are no raw bytes", () => {
    expect(notificationProblem({ headers: {}, data: [1, 2] } as never, NotificationSchema)).toMatch(
      /^\(body\): .*expected object, received array$/,
    )
  })
})
