/**
 * Builds the page from elements, never from HTML strings: every text shown (product titles,
 * decline reasons from the gateway, addresses) goes in as text, so nothing is interpreted.
 */

export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value)
    else if (name === "class") element.className = value
    else element.setAttribute(name, value === true ? "" : String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue
    element.append(child instanceof Node ? child : String(child))
  }
  return element
}

/** Replaces the page's content; null, undefined and false stand for "nothing here". */
export function render(...nodes) {
  document
    .getElementById("app")
    .replaceChildren(...nodes.flat().filter((node) => node !== null && node !== undefined && node !== false))
}

/** kind: "error", "info" or "success"; tests find it by data-testid. */
export function alertBox(kind, message, testId = "alert") {
  return h(
    "div",
    { class: `alert ${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": testId },
    message,
  )
}

export function showError(error) {
  const app = document.getElementById("app")
  app.prepend(alertBox("error", error?.message ?? String(error), "error"))
}

/** Disables a button while its action runs, so a double click does not pay twice. */
export async function busy(button, action) {
  button.disabled = true
  try {
    await action()
  } catch (error) {
    button.disabled = false
    showError(error)
  }
}
