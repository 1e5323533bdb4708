/** The SDK loaded once per page, with its integrity; the fields' iframes in the elements named by their ids. */
import { BuildSdkError, loadBuildSdk, mountCardFields } from "../build-sdk.js"
import { FakeDocument, fakePage } from "./fake-dom.js"

const SDK = "https://gateway.test/monetaweb/resources/hfsdk.js"
const FIELDS = [
  { id: "CARD_NUMBER", src: "https://gateway.test/field.html?id=CARD_NUMBER&sid=s1" },
  { id: "SECURITY_CODE", src: "https://gateway.test/field.html?id=SECURITY_CODE&sid=s1" },
]

class Build {
  confirmData() {}
}

/** What the browser does once the script arrived: it ran, and defined (or not) the global. */
function scriptRan(document: FakeDocument, defines = true) {
  const [script] = document.all("script").slice(-1)
  if (defines) document.defaultView.Build = Build
  script.onload?.()
}

describe("loadBuildSdk", () => {
  it("adds one script for the address, with the integrity and CORS, and answers the global Build", async () => {
    const document = new FakeDocument()
    const loading = loadBuildSdk(document.asDocument(), SDK, { integrity: "sha384-abc" })
    const again = loadBuildSdk(document.asDocument(), SDK, { integrity: "sha384-abc" })
    expect(again).toBe(loading)
    const scripts = document.all("script")
    expect(scripts).toHaveLength(1)
    expect(scripts[0]).toMatchObject({ src: SDK, async: true, integrity: "sha384-abc", crossOrigin: "anonymous" })
    expect(scripts[0].parent).toBe(document.head)
    scriptRan(document)
    await expect(loading).resolves.toBe(Build)
    // Loaded: later sessions use it without a script.
    await expect(loadBuildSdk(document.asDocument(), SDK)).resolves.toBe(Build)
    expect(document.all("script")).toHaveLength(1)
  })

  it("reads the script without CORS when no integrity is given", async () => {
    const document = new FakeDocument()
    const loading = loadBuildSdk(document.asDocument(), SDK)
    expect(document.all("script")[0]).toMatchObject({ integrity: "", crossOrigin: null })
    scriptRan(document)
    await loading
  })

  it("uses a Build the page loaded itself", async () => {
    const document = new FakeDocument()
    document.defaultView.Build = Build
    await expect(loadBuildSdk(document.asDocument(), SDK)).resolves.toBe(Build)
    expect(document.all("script")).toHaveLength(0)
  })

  it("refuses a script that failed, or defined no Build, and tries again on the next call", async () => {
    const document = new FakeDocument()
    const blocked = loadBuildSdk(document.asDocument(), SDK, { integrity: "sha384-old" })
    document.all("script")[0].onerror?.()
    await expect(blocked).rejects.toThrow(BuildSdkError)
    await expect(blocked).rejects.toThrow(/could not be loaded from https:\/\/gateway\.test\/.*integrity differs/)

    const wrong = loadBuildSdk(document.asDocument(), SDK)
    expect(document.all("script")).toHaveLength(2)
    scriptRan(document, false)
    await expect(wrong).rejects.toThrow(/defined no Build/)

    const third = loadBuildSdk(document.asDocument(), SDK)
    scriptRan(document)
    await expect(third).resolves.toBe(Build)
  })

  it("loads nothing that is not a web address", async () => {
    const document = new FakeDocument()
    await expect(loadBuildSdk(document.asDocument(), "javascript:alert(1)")).rejects.toThrow(
      "build_sdk: javascript:alert(1) is not a web address",
    )
    expect(document.all("script")).toHaveLength(0)
  })
})

describe("mountCardFields", () => {
  it("puts each iframe in the page's element with the field's id, or one it makes in the container", () => {
    const { document, container, element } = fakePage()
    const own = document.body.appendChild(document.createElement("div"))
    own.id = "CARD_NUMBER"
    own.appendChild(document.createElement("span"))
    const loaded = jest.fn()
    const unmount = mountCardFields(FIELDS, {
      container: element,
      titles: { CARD_NUMBER: "Card number" },
      onAllLoaded: loaded,
    })

    expect(own.children.map((child) => child.tagName)).toEqual(["IFRAME"])
    expect(own.children[0]).toMatchObject({ src: FIELDS[0].src, title: "Card number" })
    expect(own.children[0].getAttribute("data-nexi-field")).toBe("CARD_NUMBER")
    const made = document.getElementById("SECURITY_CODE")!
    expect(made.parent).toBe(container)
    expect(made.children[0]).toMatchObject({ src: FIELDS[1].src, title: "SECURITY_CODE" })

    const frames = document.all("iframe")
    frames[0].dispatch("load")
    expect(loaded).not.toHaveBeenCalled()
    frames[1].dispatch("load")
    frames[1].dispatch("load")
    expect(loaded).toHaveBeenCalledTimes(1)

    unmount()
    expect(document.all("iframe")).toEqual([])
  })
})
