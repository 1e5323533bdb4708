/**
 * The gateway's browser SDK for XPay Build (hfsdk.js) and its card fields, as the production
 * front ends use them (Nexi's own WooCommerce scripts, pagoPA's checkout): the script defines a
 * global `Build`; `new Build(options)` listens to the fields, which are the gateway's pages in
 * iframes, each inside the element whose DOM id is the field's id. Only what those front ends
 * rely on is typed here, so the kit runs unchanged against the real SDK and the simulator's.
 */
import type { CardField } from "./card-fields.js"
import { isWebAddress } from "./web-address.js"

/** What the SDK passes its callbacks. Every member is optional: the SDK's events are not all documented. */
export interface BuildEvent {
  /** BUILD_SUCCESS, BUILD_ERROR, BUILD_FLOW_STATE_CHANGE, ... */
  event?: string
  /** The field an event is about. */
  id?: string
  state?: string
  /** HF0001 invalid field, HF0002 unavailable, HF0003 session expired, HF0004 card number, HF0005 circuit, HF0006 card expired, HF0007 internal, HF0009 3-D Secure failed. */
  errorCode?: string
  errorMessage?: string
  /** onConfirmError: each field's check. */
  validationStatus?: { id?: string; valid?: boolean; errorCode?: string; errorMessage?: string }[]
  data?: { url?: string; state?: string }
}

export interface BuildOptions {
  onBuildSuccess?: (event: BuildEvent) => void
  onBuildError?: (event: BuildEvent) => void
  onConfirmError?: (event: BuildEvent) => void
  onBuildFlowStateChange?: (event: BuildEvent, state?: string) => void
  /** Not in every SDK's record: the kit also counts the iframes' load events. */
  onAllFieldsLoaded?: () => void
  /** An absolute URL of a stylesheet every field loads. */
  cssLink?: string
  defaultComponentCssClassName?: string
  defaultContainerCssClassName?: string
}

export interface BuildInstance {
  /** Asks the fields to check the card; the state becomes READY_FOR_PAYMENT, or onConfirmError says why not. */
  confirmData(callback?: () => void): void
}

export type BuildConstructor = new (options: BuildOptions) => BuildInstance

/** The SDK could not be loaded, or defined no `Build`. */
export class BuildSdkError extends Error {
  constructor(problem: string) {
    super(problem)
    this.name = "BuildSdkError"
  }
}

export interface LoadSdkOptions {
  /** Subresource Integrity of the script (the gateway's GET /build/integrity): the browser refuses any other script. */
  integrity?: string
}

type WindowWithBuild = Window & { Build?: unknown }

// One load per page and address: a second session, or a component mounted twice, reuses it.
const loads = new WeakMap<Document, Map<string, Promise<BuildConstructor>>>()

function buildOf(document: Document): BuildConstructor | undefined {
  const build = (document.defaultView as WindowWithBuild | null)?.Build
  return typeof build === "function" ? (build as BuildConstructor) : undefined
}

/**
 * Loads the SDK into the page once and answers its `Build`. A page that loads the script
 * itself (a `<script src integrity>` in its HTML) is used as it is. A failed load is tried
 * again on the next call.
 */
export function loadBuildSdk(document: Document, src: string, options: LoadSdkOptions = {}): Promise<BuildConstructor> {
  const ready = buildOf(document)
  if (ready) return Promise.resolve(ready)
  if (!isWebAddress(src)) return Promise.reject(new BuildSdkError(`build_sdk: ${src} is not a web address`))
  const ofPage = loads.get(document) ?? new Map<string, Promise<BuildConstructor>>()
  loads.set(document, ofPage)
  const loading = ofPage.get(src)
  if (loading) return loading
  const load = new Promise<BuildConstructor>((resolve, reject) => {
    const script = document.createElement("script")
    script.src = src
    script.async = true
    if (options.integrity) {
      script.integrity = options.integrity
      // Integrity is checked only on a script read with CORS.
      script.crossOrigin = "anonymous"
    }
    script.onload = () => {
      const build = buildOf(document)
      if (build) resolve(build)
      else reject(new BuildSdkError(`The script at ${src} defined no Build: is it the gateway's hfsdk.js?`))
    }
    script.onerror = () =>
      reject(
        new BuildSdkError(
          `The gateway's card fields could not be loaded from ${src} (blocked, offline, or its integrity differs).`,
        ),
      )
    document.head.appendChild(script)
  })
  ofPage.set(src, load)
  load.catch(() => {
    if (ofPage.get(src) === load) ofPage.delete(src)
  })
  return load
}

export interface MountOptions {
  /** The element new containers go into, for fields the page has no element for. */
  container: HTMLElement
  /** Each field's accessible name (the iframe's title), by field id; the id otherwise. */
  titles?: Record<string, string>
  /** Runs once every iframe has loaded its page. */
  onAllLoaded?: () => void
}

/**
 * Puts each field's iframe in the element whose DOM id is the field's id (made inside
 * `container` when the page has none), replacing what was there. Answers a function that
 * removes them.
 */
export function mountCardFields(
  fields: CardField[],
  { container, titles = {}, onAllLoaded }: MountOptions,
): () => void {
  const document = container.ownerDocument
  let waiting = fields.length
  const frames = fields.map((field) => {
    let holder = document.getElementById(field.id)
    if (!holder) {
      holder = document.createElement("div")
      holder.id = field.id
      container.appendChild(holder)
    }
    const frame = document.createElement("iframe")
    frame.src = field.src
    frame.title = titles[field.id] ?? field.id
    frame.setAttribute("data-nexi-field", field.id)
    frame.addEventListener(
      "load",
      () => {
        waiting -= 1
        if (waiting === 0) onAllLoaded?.()
      },
      { once: true },
    )
    holder.replaceChildren(frame)
    return frame
  })
  return () => {
    for (const frame of frames) frame.remove()
  }
}
