/**
 * The few parts of a browser page the card fields' code touches (build-sdk.ts, card-payment.ts),
 * faked: elements that hold children, ids, attributes and listeners; a document that makes them
 * and finds them by id; a window with the SDK's global `Build` and a location. The tests run in
 * node, so what the browser would do (a script's load, an iframe's load) the test does.
 */

type Listener = (event: { type: string }) => void

export class FakeElement {
  id = ""
  src = ""
  title = ""
  className = ""
  async = false
  integrity = ""
  crossOrigin: string | null = null
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  children: FakeElement[] = []
  parent: FakeElement | null = null
  readonly attributes = new Map<string, string>()
  private readonly listeners = new Map<string, Listener[]>()

  constructor(
    readonly tagName: string,
    readonly ownerDocument: FakeDocument,
  ) {}

  appendChild(child: FakeElement): FakeElement {
    child.remove()
    child.parent = this
    this.children.push(child)
    return child
  }

  replaceChildren(...children: FakeElement[]): void {
    for (const child of [...this.children]) child.remove()
    for (const child of children) this.appendChild(child)
  }

  remove(): void {
    if (!this.parent) return
    this.parent.children = this.parent.children.filter((child) => child !== this)
    this.parent = null
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value)
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null
  }

  addEventListener(type: string, listener: Listener, options?: { once?: boolean }): void {
    const wrapped: Listener = options?.once
      ? (event) => {
          this.listeners.set(
            type,
            (this.listeners.get(type) ?? []).filter((candidate) => candidate !== wrapped),
          )
          listener(event)
        }
      : listener
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), wrapped])
  }

  dispatch(type: string): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ type })
  }

  /** This element and everything under it, depth first. */
  *walk(): Generator<FakeElement> {
    yield this
    for (const child of this.children) yield* child.walk()
  }
}

export interface FakeWindow {
  Build?: unknown
  location: { assign: jest.Mock }
}

export class FakeDocument {
  readonly head: FakeElement
  readonly body: FakeElement
  readonly defaultView: FakeWindow = { location: { assign: jest.fn() } }
  readonly baseURI = "https://shop.test/it/checkout?step=review"

  constructor() {
    this.head = new FakeElement("HEAD", this)
    this.body = new FakeElement("BODY", this)
  }

  createElement(tagName: string): FakeElement {
    return new FakeElement(tagName.toUpperCase(), this)
  }

  getElementById(id: string): FakeElement | null {
    for (const root of [this.head, this.body]) {
      for (const element of root.walk()) if (element.id === id) return element
    }
    return null
  }

  /** Every element of that tag in the page. */
  all(tagName: string): FakeElement[] {
    return [...this.head.walk(), ...this.body.walk()].filter((element) => element.tagName === tagName.toUpperCase())
  }

  /** As the DOM's types, for the code under test. */
  asDocument(): Document {
    return this as unknown as Document
  }
}

/** A page with an element the fields go into; answers both, the element typed as the code takes it. */
export function fakePage(): { document: FakeDocument; container: FakeElement; element: HTMLElement } {
  const document = new FakeDocument()
  const container = document.body.appendChild(document.createElement("div"))
  return { document, container, element: container as unknown as HTMLElement }
}
