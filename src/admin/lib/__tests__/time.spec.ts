import { NO_VALUE } from "../money"
import { formatTime } from "../time"

describe("formatTime", () => {
  it("writes an ISO time the way the admin's payment section does", () => {
    expect(formatTime("2025-11-21T14:03:12.000Z", "UTC")).toBe("21 Nov, 2025, 14:03:12")
  })

  it("converts the gateway's offset to the viewer's time zone", () => {
    expect(formatTime("2025-11-21T23:30:00+01:00", "Europe/Rome")).toBe("21 Nov, 2025, 23:30:00")
    expect(formatTime("2025-11-21T23:30:00+01:00", "UTC")).toBe("21 Nov, 2025, 22:30:00")
  })

  it("uses a 24-hour clock, midnight as 00", () => {
    expect(formatTime("2025-01-05T00:07:09Z", "UTC")).toBe("05 Jan, 2025, 00:07:09")
  })

  it("shows a missing time as a placeholder and an unreadable one as it came", () => {
    expect(formatTime(null)).toBe(NO_VALUE)
    expect(formatTime("yesterday")).toBe("yesterday")
  })
})
