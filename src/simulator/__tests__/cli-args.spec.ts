/** nexi-simulator's arguments, parsed without starting a process. */
import { parseCliArguments, usage } from "../cli-args"

const USAGE = usage()

describe("parseCliArguments", () => {
  it("maps every flag to a startSimulator option", () => {
    const command = parseCliArguments([
      "--port",
      "0",
      "--host",
      "127.0.0.2",
      "--public-url",
      "https://sim.example",
      "--api-key",
      "a",
      "--api-key",
      "b",
      "--apm-consumer-key",
      "k",
      "--apm-consumer-secret",
      "s",
      "--control",
      "--state",
      "/tmp/state.json",
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

  it("reads a value that begins with a dash in the --name=value form, as the demo passes its random secrets", () => {
    const command = parseCliArguments(["--api-key=-k1", "--apm-consumer-key=-ck", "--apm-consumer-secret=-Xs_9"])
    expect(command).toEqual({
      kind: "start",
      quiet: false,
      options: expect.objectContaining({ apiKeys: ["-k1"], apmConsumerKey: "-ck", apmConsumerSecret: "-Xs_9" }),
    })
  })

  it("leaves defaults to startSimulator", () => {
    expect(parseCliArguments([])).toEqual({
      kind: "start",
      quiet: false,
      options: expect.objectContaining({ port: undefined, control: false }),
    })
  })

  it.each([
    [["--port", "http"], /--port must be a whole number/],
    [["--public-url", "nowhere"], /--public-url must be an absolute URL/],
    [["--unknown"], /Unknown option/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliArguments(argv)).toThrow(message)
  })

  it("answers help, with the other options given beside it", () => {
    expect(parseCliArguments(["--help"])).toEqual({
      kind: "help",
      options: expect.objectContaining({ port: undefined }),
    })
    expect(parseCliArguments(["--port", "9511", "--help"])).toEqual({
      kind: "help",
      options: expect.objectContaining({ port: 9511 }),
    })
  })
})

describe("USAGE (nexi-simulator --help)", () => {
  it("names every flag the parser accepts, with its default", () => {
    for (const flag of [
      "--port",
      "--host",
      "--public-url",
      "--api-key",
      "--apm-consumer-key",
      "--apm-consumer-secret",
      "--control",
      "--state",
      "--quiet",
      "--help",
    ]) {
      expect(USAGE).toContain(flag)
    }
    expect(USAGE).toMatch(/--port N .*\(default: 4010\)/)
    expect(USAGE).toMatch(/--host HOST .*\(default: 127\.0\.0\.1\)/)
    expect(USAGE).toMatch(/--public-url URL[^\n]*\n *\(default: the listening address\)/)
    expect(USAGE).toMatch(/--control[^\n]*\n *\(default: off\)/)
    expect(USAGE).toMatch(/--state FILE[^\n]*\n *\(default: none, in memory\)/)
    expect(USAGE).toMatch(/--quiet .*\(default: off\)/)
  })

  it("prints the simulator's default credentials and the provider options that reach it", () => {
    expect(USAGE).toMatch(/--api-key KEY[^\n]*\n *\(default: 5d952446-9004-4023-9eae-a527a152846b\)/)
    expect(USAGE).toMatch(/--apm-consumer-key K .*\(default: sim-key\)/)
    expect(USAGE).toMatch(/--apm-consumer-secret S .*\(default: sim-secret\)/)
    expect(USAGE).toContain("NEXI_SIMULATOR_URL=http://127.0.0.1:4010\n")
    expect(USAGE).toMatch(/environment: +http:\/\/127\.0\.0\.1:4010\/api\/phoenix-0\.0\/psp\/api\/v1\n/)
    expect(USAGE).toMatch(/apm\.environment: +http:\/\/127\.0\.0\.1:4010\/apm\n/)
    expect(USAGE).toContain("NEXI_API_KEY=5d952446-9004-4023-9eae-a527a152846b (the public sandbox test key)")
  })

  it("prints the addresses of the port and host given beside --help, and never a credential given", () => {
    const { options } = parseCliArguments([
      "--port=9511",
      "--host=localhost",
      "--api-key=merchant-secret-key",
      "--apm-consumer-secret=s3cr3t-given",
      "--help",
    ])
    const text = usage(options)
    expect(text).toContain("NEXI_SIMULATOR_URL=http://localhost:9511\n")
    expect(text).toMatch(/environment: +http:\/\/localhost:9511\/api\/phoenix-0\.0\/psp\/api\/v1\n/)
    expect(text).toMatch(/apm\.environment: +http:\/\/localhost:9511\/apm\n/)
    expect(text).not.toMatch(/:4010/)
    expect(text).toContain("NEXI_API_KEY=the --api-key you gave")
    expect(text).not.toMatch(/merchant-secret-key|s3cr3t-given/)
    expect(usage(parseCliArguments(["--port", "0", "--help"]).options)).toContain(
      "NEXI_SIMULATOR_URL=http://127.0.0.1:<port>",
    )
  })

  it("keeps every line within 100 columns", () => {
    for (const line of usage({ port: 65_535, host: "127.255.255.255" }).split("\n"))
      expect(line.length).toBeLessThanOrEqual(100)
  })
})
