/** nexi-simulator's arguments, parsed without starting a process. */
import { parseCliArguments } from "../cli-args"

describe("parseCliArguments", () => {
  it("maps every flag to a startSimulator option", () => {
    const command = parseCliArguments([
      "--port", "0", "--host", "127.0.0.2", "--public-url", "https://sim.example", "--api-key", "a", "--api-key", "b",
      "--apm-consumer-key", "k", "--apm-consumer-secret", "s", "--control", "--state", "/tmp/state.json",
    ])
    expect(command).toEqual({
      kind: "start",
      quiet: false,
      options: {
        port: 0,
        host: "127.0.0.2",
        publicUrl: "https://sim.example",
        apiKeys: ["a", "b"],
        apmConsumerKey: "k",
        apmConsumerSecret: "s",
        control: true,
        stateFile: "/tmp/state.json",
      },
    })
  })

  it("leaves defaults to startSimulator", () => {
    expect(parseCliArguments([])).toEqual({ kind: "start", quiet: false, options: expect.objectContaining({ port: undefined, control: false }) })
  })

  it.each([
    [["--port", "http"], /--port must be a whole number/],
    [["--public-url", "nowhere"], /--public-url must be an absolute URL/],
    [["--unknown"], /Unknown option/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliArguments(argv)).toThrow(message)
  })

  it("answers help", () => {
    expect(parseCliArguments(["--help"])).toEqual({ kind: "help" })
  })
})
