import fc from "fast-check"
import { isSecretKey, maskPans, REDACTED, redact, redactForLog, redactText } from "../redact"

describe("isSecretKey", () => {
  it.each([
    "X-API-KEY",
    "x-api-key",
    "X-Api-Key",
    "apiKey",
    "Authorization",
    "pan",
    "PAN",
    "cvv",
    "expiryDate",
    "securityToken",
    "consumerSecret",
  ])("treats %s as secret", (key) => expect(isSecretKey(key)).toBe(true))

  it.each([
    "cvc",
    "CVC2",
    "expiry",
    "expiry_date",
    "token",
    "Security-Token",
    "password",
    "client_secret",
    "client-secret",
    "ClientSecret",
    "consumer_secret",
    "api_key",
    "API-KEY",
    "Cookie",
    "set-cookie",
    "authorization",
    "access_token",
  ])("treats %s as secret too (case and -/_ variants)", (key) => expect(isSecretKey(key)).toBe(true))

  it.each(["Idempotency-Key", "Correlation-Id", "orderId", "amount", "consumerKey", "pageToken", "cardNumber"])(
    "keeps %s readable",
    (key) => expect(isSecretKey(key)).toBe(false),
  )
})

describe("maskPans", () => {
  it.each([
    ["4999340261977289", "[PAN ****7289]"],
    ["card 5515931855858729 declined", "card [PAN ****8729] declined"],
    ["4999 3402 6197 7289", "[PAN ****7289]"],
    ["4999-3402-6197-7289", "[PAN ****7289]"],
    ["a 13-digit 4222222222222 visa", "a 13-digit [PAN ****2222] visa"],
  ])("masks %p", (text, masked) => expect(maskPans(text)).toBe(masked))

  it.each([
    ["a long number failing Luhn", "4999340261977288"],
    ["12 digits", "499934026197"],
    ["20 digits", "49993402619772890000"],
    ["an amount", "1999"],
    ["a timestamp", "2024-01-01T00:00:00.000Z"],
  ])("leaves %s alone", (_case, text) => expect(maskPans(text)).toBe(text))
})

describe("redact", () => {
  const input = {
    headers: { "X-API-KEY": "k1", Authorization: "Bearer abc", "Idempotency-Key": "idem" },
    order: { orderId: "A1", description: "paid with 4999340261977289" },
    card: { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
    list: [{ securityToken: "t1" }, "5515931855858729", 42],
    nothing: null,
  }

  it("replaces secret keys at any depth and masks card numbers in strings, leaving the input untouched", () => {
    const copy = JSON.parse(JSON.stringify(input))
    expect(redact(input)).toEqual({
      headers: { "X-API-KEY": REDACTED, Authorization: REDACTED, "Idempotency-Key": "idem" },
      order: { orderId: "A1", description: "paid with [PAN ****7289]" },
      card: { pan: REDACTED, expiryDate: REDACTED, cvv: REDACTED },
      list: [{ securityToken: REDACTED }, "[PAN ****8729]", 42],
      nothing: null,
    })
    expect(input).toEqual(copy)
  })

  it("redactForLog handles JSON text, plain text, numbers that are card numbers and nothing", () => {
    expect(redactForLog('{"cvv":"123","pan":"4999340261977289"}')).toBe(`{"cvv":"${REDACTED}","pan":"${REDACTED}"}`)
    expect(redactForLog("not json 4999340261977289")).toBe("not json [PAN ****7289]")
    expect(redactForLog({ cardNumber: 4999340261977289 })).toBe('{"cardNumber":"[PAN ****7289]"}')
    expect(redactForLog(undefined)).toBe("")
  })
})

describe("maskPans with other ways of writing a card number", () => {
  const FULL_WIDTH = "４９９９３４０２６１９７７２８９"
  it.each([
    ["dots", "4999.3402.6197.7289", "[PAN ****7289]"],
    ["NBSP", "4999\u00a03402\u00a06197\u00a07289", "[PAN ****7289]"],
    ["narrow NBSP and thin spaces", "4999\u202f3402\u20096197\u202f7289", "[PAN ****7289]"],
    ["double spaces", "card 4999  3402  6197  7289 ok", "card [PAN ****7289] ok"],
    ["spaced dashes", "4999 - 3402 - 6197 - 7289", "[PAN ****7289]"],
    ["full-width digits", `card ${FULL_WIDTH}.`, "card [PAN ****7289]."],
    [
      "full-width digits and ideographic spaces",
      "４９９９\u3000３４０２\u3000６１９７\u3000７２８９",
      "[PAN ****7289]",
    ],
    ["Arabic-Indic digits", "٤٩٩٩٣٤٠٢٦١٩٧٧٢٨٩", "[PAN ****7289]"],
    ["zero-width spaces", "4999\u200b3402\u200b6197\u200b7289", "[PAN ****7289]"],
    ["uneven groups", "49 9934 0261 977 289", "[PAN ****7289]"],
    ["JSON escapes of NBSP", "4999\\u00a03402\\u00a06197\\u00a07289", "[PAN ****7289]"],
    ["a 19-digit card after other numbers", "order 12 ref 6011000990139424", "order 12 ref [PAN ****9424]"],
    ["two cards", "4999340261977289 and 5515-9318-5585-8729", "[PAN ****7289] and [PAN ****8729]"],
  ])("masks a card number written with %s", (_case, text, masked) => expect(maskPans(text)).toBe(masked))

  it.each([
    ["an IP address and a port", "10.0.0.1:4010"],
    ["a date and time", "2024.01.01 12.30"],
    ["digits glued to the card number", "x49993402619772891"],
    ["a dotted number failing Luhn", "4999.3402.6197.7288"],
  ])("leaves %s alone", (_case, text) => expect(maskPans(text)).toBe(text))
})

describe("redactText", () => {
  it.each([
    ["an API key header line", "X-API-KEY: 5d952446-9004\nHost: x", `X-API-KEY: ${REDACTED}\nHost: x`],
    ["a bearer authorization header", "Authorization: Bearer abc.def-ghi", `Authorization: ${REDACTED}`],
    ["a basic authorization header", "authorization: Basic dXNlcjpwYXNz", `authorization: ${REDACTED}`],
    [
      "a cookie header, to the end of the line",
      "Cookie: a=1; session=s3cr3t\r\nAccept: */*",
      `Cookie: ${REDACTED}\r\nAccept: */*`,
    ],
    ["a bearer token in prose", "sent Bearer eyJhbGciOi.x-y", `sent Bearer ${REDACTED}`],
    [
      "tokens in a URL query",
      "GET /orders?token=t0k3n&api_key=k3y&page=2",
      `GET /orders?token=${REDACTED}&api_key=${REDACTED}&page=2`,
    ],
    [
      "a token in a URL fragment",
      "https://x/cb#access_token=abc&state=1",
      `https://x/cb#access_token=${REDACTED}&state=1`,
    ],
    ["a cvv written as key=value", "cvv=123 amount=5", `cvv=${REDACTED} amount=5`],
    ["a dotted option name", "options.apiKey: k3y", `options.apiKey: ${REDACTED}`],
    ["a cvc in JSON text", '{"cvc":"123","amount":5}', `{"cvc":"${REDACTED}","amount":5}`],
    ["a numeric cvv2 in JSON text", '{"cvv2": 123}', `{"cvv2": ${REDACTED}}`],
    ["a cvv in JSON inside JSON text", '{"body":"{\\"cvv\\":\\"123\\"}"}', `{"body":"{\\"cvv\\":\\"${REDACTED}\\"}"}`],
    ["a card number next to a pan key, masked once", "pan=4999340261977289", "pan=[PAN ****7289]"],
  ])("masks %s", (_case, text, masked) => expect(redactText(text)).toBe(masked))

  it.each(["Idempotency-Key: abc", "orderId=A1&amount=5", "Error: something failed", "pageToken=p1"])(
    "leaves %p alone",
    (text) => expect(redactText(text)).toBe(text),
  )
})

describe("redact on awkward values", () => {
  it.each([
    ["a cvv in a JSON string", { body: '{"cvv":"123","n":1}' }, { body: `{"cvv":"${REDACTED}","n":1}` }],
    ["a cvc in a JSON array string", { body: '[{"cvc":"999"}]' }, { body: `[{"cvc":"${REDACTED}"}]` }],
    ["header text in a string", { raw: "Authorization: Bearer abc" }, { raw: `Authorization: ${REDACTED}` }],
    ["a URL with a token", { url: "https://x/y?token=abc" }, { url: `https://x/y?token=${REDACTED}` }],
    [
      "secret keys with any case and -/_",
      { CVC: "1", expiry: "1230", "client-secret": "s", Client_Secret: "s", PASSWORD: "p", cookie: "c", token: "t" },
      {
        CVC: REDACTED,
        expiry: REDACTED,
        "client-secret": REDACTED,
        Client_Secret: REDACTED,
        PASSWORD: REDACTED,
        cookie: REDACTED,
        token: REDACTED,
      },
    ],
    ["a BigInt card number", { n: 4999340261977289n }, { n: "[PAN ****7289]" }],
    ["a BigInt", { n: 12n }, { n: "12" }],
    ["a symbol", { s: Symbol("x") }, { s: "Symbol(x)" }],
    ["a function", { f: () => 1 }, { f: "[Function]" }],
    ["a date", { d: new Date(0) }, { d: "1970-01-01T00:00:00.000Z" }],
    ["an invalid date", { d: new Date(Number.NaN) }, { d: "[Invalid Date]" }],
    ["a buffer", { b: Buffer.from("4999340261977289") }, { b: "[Binary 16 bytes]" }],
    [
      "a map",
      new Map<unknown, unknown>([
        ["cvv", "1"],
        ["a", "4999340261977289"],
      ]),
      { cvv: REDACTED, a: "[PAN ****7289]" },
    ],
    ["an error", new Error("card 4999340261977289"), { name: "Error", message: "card [PAN ****7289]" }],
  ])("handles %s", (_case, input, output) => expect(redact(input)).toEqual(output))

  it("replaces a cycle, a throwing getter and a throwing proxy by placeholders", () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    cyclic.list = [cyclic]
    const getter = Object.defineProperty({ ok: 1 }, "bad", {
      enumerable: true,
      get() {
        throw new Error("no")
      },
    })
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no")
        },
      },
    )
    expect(redact(cyclic)).toEqual({ a: 1, self: "[Circular]", list: ["[Circular]"] })
    expect(redact(getter)).toEqual({ ok: 1, bad: "[Unreadable]" })
    expect(redact({ proxy })).toEqual({ proxy: "[Unreadable]" })
    expect(() => redactForLog(cyclic)).not.toThrow()
  })

  it("keeps a value seen twice without a cycle", () => {
    const shared = { a: 1 }
    expect(redact({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } })
  })

  it("stops at a placeholder on very deep nesting", () => {
    let deep: unknown = "4999340261977289"
    for (let level = 0; level < 10_000; level++) deep = { next: deep }
    expect(() => redact(deep)).not.toThrow()
    const text = redactForLog(deep)
    expect(text).toContain("[Too deep]")
    expect(text).not.toContain("4999340261977289")
  })

  it("redactForLog never throws and writes a BigInt", () => {
    expect(redactForLog({ n: 1n, s: Symbol("x"), f: () => 1 })).toBe('{"n":"1","s":"Symbol(x)","f":"[Function]"}')
  })
})

describe("redaction properties", () => {
  const FULL_WIDTH_ZERO = 0xff10
  const SEPARATORS = [" ", "  ", "\u00a0", ".", "-", " - ", "\u202f", "\u3000", ""]

  /** A Luhn-valid card number of 13 to 19 digits. */
  const cardNumber = fc
    .integer({ min: 13, max: 19 })
    .chain((length) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }))
    .map((body) => {
      const first = [4, ...body.slice(1)]
      let sum = 0
      for (let index = 0; index < first.length; index++) {
        let digit = first[first.length - 1 - index] ?? 0
        if (index % 2 === 0) {
          digit *= 2
          if (digit > 9) digit -= 9
        }
        sum += digit
      }
      return `${first.join("")}${(10 - (sum % 10)) % 10}`
    })

  /** The card number as someone might write it: separators between digits, some digits full-width. */
  const writtenCard = cardNumber.chain((digits) =>
    fc
      .tuple(
        fc.array(fc.constantFrom(...SEPARATORS), { minLength: digits.length, maxLength: digits.length }),
        fc.array(fc.boolean(), { minLength: digits.length, maxLength: digits.length }),
      )
      .map(([separators, wide]) => ({
        digits,
        written: [...digits]
          .map((digit, index) => {
            const char = wide[index] ? String.fromCharCode(FULL_WIDTH_ZERO + Number(digit)) : digit
            return index === 0 ? char : `${separators[index]}${char}`
          })
          .join(""),
      })),
  )

  const secretKey = fc.constantFrom(
    "apiKey",
    "X-API-KEY",
    "api_key",
    "Authorization",
    "cookie",
    "cvv",
    "CVC",
    "cvv2",
    "expiry",
    "expiryDate",
    "token",
    "securityToken",
    "password",
    "client_secret",
    "consumerSecret",
  )
  const secretValue = fc.stringMatching(/^[A-Za-z0-9]{12,32}$/).map((value) => `S3cr${value}`)
  const filler = fc.constantFrom("card ", "paid with ", "(", "n°", "PAN:", "", " ok", ".", "\n")

  type Leaf = { value: unknown; secrets: string[] }

  const leaf: fc.Arbitrary<Leaf> = fc.oneof(
    fc.tuple(filler, writtenCard, filler).map(([before, card, after]) => ({
      value: `${before}${card.written}${after}`,
      secrets: [card.written, card.digits],
    })),
    fc.tuple(secretKey, secretValue).map(([key, value]) => ({ value: { [key]: value }, secrets: [value] })),
    fc.tuple(secretKey, secretValue).map(([key, value]) => ({ value: `${key}: ${value}`, secrets: [value] })),
    fc
      .tuple(secretKey, secretValue)
      .map(([key, value]) => ({ value: `https://x.test/cb?${key}=${value}&page=2`, secrets: [value] })),
    fc.string().map((value) => ({ value, secrets: [] })),
  )

  const nested: fc.Arbitrary<Leaf> = fc.letrec<{ node: Leaf }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc
        .tuple(fc.string({ maxLength: 6 }), tie("node"))
        .map(([key, inner]) => ({ value: { [`k${key}`]: inner.value }, secrets: inner.secrets })),
      fc
        .array(tie("node"), { maxLength: 3 })
        .map((items) => ({ value: items.map((item) => item.value), secrets: items.flatMap((item) => item.secrets) })),
      tie("node").map((inner) => ({ value: JSON.stringify(inner.value) ?? "", secrets: inner.secrets })),
    ),
  })).node

  it("leaves no secret in what it returns, and never throws", () => {
    fc.assert(
      fc.property(nested, ({ value, secrets }) => {
        const redacted = JSON.stringify(redact(value)) ?? ""
        const logged = redactForLog(value)
        for (const secret of secrets) {
          expect(redacted).not.toContain(secret)
          expect(logged).not.toContain(secret)
        }
      }),
      { numRuns: 200 },
    )
  })

  it("never throws on anything", () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true, withTypedArray: true }),
        (value) => {
          expect(() => JSON.stringify(redact(value))).not.toThrow()
          expect(() => redactForLog(value)).not.toThrow()
        },
      ),
      { numRuns: 200 },
    )
  })
})
