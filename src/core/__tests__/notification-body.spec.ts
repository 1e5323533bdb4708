/**
 * The shapes a notification body reaches the provider in. With the Redis event bus the raw
 * bytes arrive JSON-serialised (`{ type: "Buffer", data: [...] }`); core's subscriber turns them
 * back into a Buffer, but the plugin's own subscriber can get the serialised form (on a retry,
 * core's subscriber having succeeded already). integration-tests/production proves the bytes
 * survive Redis end to end; this proves every form is read the same.
 */
import { NotificationSchema } from "../../gateway/schemas"
import { parseNotificationBody } from "../notification-body"

const body = {
  eventId: "6b2d1c2e-0c4f-4a53-9a34-2f0b1d8f5e11",
  eventTime: "2025-03-01T10:00:00.000Z",
  securityToken: "2f1c4e8a9b7d4c3e8f6a5b4c3d2e1f00",
  operation: {
    orderId: "ORD123",
    operationType: "AUTHORIZATION",
    operationResult: "AUTHORIZED",
    description: "Caffè, 2 × ☕",
  },
}
const text = JSON.stringify(body)
/** What the Redis event bus delivers for a Buffer: JSON.stringify turns it into this. */
const serialisedBuffer = JSON.parse(JSON.stringify(Buffer.from(text, "utf8"))) as { type: string; data: number[] }

const parse = (payload: { data?: unknown; rawData?: unknown }) =>
  parseNotificationBody({ headers: {}, ...payload } as never, NotificationSchema)

describe("parseNotificationBody", () => {
  it("reads raw bytes that crossed the Redis event bus as { type: 'Buffer', data }, multi-byte characters included", () => {
    expect(serialisedBuffer.type).toBe("Buffer")
    expect(parse({ data: text, rawData: serialisedBuffer })).toEqual(body)
  })

  it("reads the same body from a Buffer, from a string and from the parsed JSON alike", () => {
    expect(parse({ data: {}, rawData: Buffer.from(text, "utf8") })).toEqual(body)
    expect(parse({ data: {}, rawData: text })).toEqual(body)
    expect(parse({ data: body, rawData: undefined })).toEqual(body)
  })

  it("yields nothing, without throwing, for serialised bytes that are not a notification", () => {
    const notJson = JSON.parse(JSON.stringify(Buffer.from("{not json", "utf8")))
    expect(parse({ data: "{not json", rawData: notJson })).toBeUndefined()
    expect(parse({ data: {}, rawData: { type: "Buffer", data: "not an array" } })).toBeUndefined()
  })
})
