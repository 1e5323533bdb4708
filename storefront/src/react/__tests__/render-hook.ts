/**
 * Runs a hook in React DOM without a browser DOM: the hooks render nothing, so React needs
 * only a container element to hold the root and the few globals it reads when it commits.
 * The tests' environment is node, so these stubs stay in this test's module scope.
 */
import { act, createElement } from "react"
import { createRoot } from "react-dom/client"

const globals = globalThis as Record<string, unknown>
globals.IS_REACT_ACT_ENVIRONMENT = true
// React DOM reads window.event for an update's priority and looks for a focused iframe when it commits.
globals.window ??= { HTMLIFrameElement: class {} }

function fakeElement(): Element {
  const events = { addEventListener() {}, removeEventListener() {} }
  const document = { nodeType: 9, nodeName: "#document", ...events }
  return {
    nodeType: 1,
    nodeName: "DIV",
    tagName: "DIV",
    namespaceURI: "http://www.w3.org/1999/xhtml",
    textContent: "",
    ownerDocument: document,
    ...events,
  } as unknown as Element
}

export interface RenderedHook<Props, Result> {
  /** What the hook returned at the last render. */
  current: () => Result
  rerender: (props: Props) => Promise<void>
  unmount: () => Promise<void>
}

interface ProbeProps<Props, Result> {
  hook: (props: Props) => Result
  props: Props
  report: (result: Result) => void
}

function HookProbe<Props, Result>({ hook, props, report }: ProbeProps<Props, Result>) {
  report(hook(props))
  return null
}

export async function renderHook<Props, Result>(
  hook: (props: Props) => Result,
  props: Props,
): Promise<RenderedHook<Props, Result>> {
  let result: Result | undefined
  const report = (latest: Result) => {
    result = latest
  }
  const root = createRoot(fakeElement())
  const render = (next: Props) =>
    act(async () => root.render(createElement(HookProbe<Props, Result>, { hook, props: next, report })))
  await render(props)
  return {
    current: () => result as Result,
    rerender: render,
    unmount: () => act(async () => root.unmount()),
  }
}

/** Runs what the page would run on a click (a hook's action), so its state updates render. */
export function perform(action: () => unknown): Promise<void> {
  return act(async () => {
    await action()
  })
}

/** Lets pending promises and short timers run inside act, so their state updates render. */
export function settle(ms = 0): Promise<void> {
  return act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms))
  })
}

/**
 * Settles until `done` holds: the hooks' pauses are real timers, and on a busy machine a
 * fixed wait may end before they do.
 */
export async function settleUntil(done: () => boolean, limitMs = 5_000): Promise<void> {
  const giveUpAt = Date.now() + limitMs
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`settleUntil: not done after ${limitMs} ms`)
    await settle(2)
  }
}
