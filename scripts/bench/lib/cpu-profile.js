/**
 * Reads V8 CPU profiles (.cpuprofile, as `node --cpu-prof` and store/cpu-probe.js write them)
 * into what the bench reports: CPU time by where the code comes from (the plugin, Medusa, the
 * database driver, zod, node itself, GC), the plugin's top functions by self time, and
 * the time spent inside the plugin's frames including what they call.
 */
const path = require("node:path")

/** Where a frame's code comes from, from its script URL; first match wins. */
const ORIGINS = [
  ["plugin", (url) => url.includes("/.medusa/server/src/")],
  ["zod", (url) => url.includes("/node_modules/zod/")],
  ["database", (url) => /\/node_modules\/(pg|pg-[a-z-]+|knex|@mikro-orm|postgres-[a-z-]+)\//.test(url)],
  ["medusa", (url) => url.includes("/node_modules/@medusajs/")],
  [
    "express & http",
    (url) =>
      /\/node_modules\/(express|body-parser|router|raw-body|cookie|qs|on-finished|finalhandler|send|cors|compression)\//.test(
        url,
      ),
  ],
  ["other packages", (url) => url.includes("/node_modules/")],
  ["node", (url) => url.startsWith("node:") || (url === "" ? false : !url.startsWith("file:") && !url.startsWith("/"))],
]

function originOf(frame) {
  const { url, functionName } = frame
  if (!url) {
    if (functionName === "(garbage collector)") return "gc"
    if (functionName === "(idle)") return "idle"
    if (functionName === "(program)") return "program"
    return "native"
  }
  for (const [name, matches] of ORIGINS) if (matches(url)) return name
  return "other"
}

/** `src/providers/nexi/card/card-provider.js:42 startHostedOrder`, shortened to the plugin's source path. */
function frameLabel(frame) {
  const file = frame.url.includes("/.medusa/server/")
    ? frame.url.slice(frame.url.indexOf("/.medusa/server/") + "/.medusa/server/".length)
    : path.basename(frame.url)
  return `${file}:${frame.lineNumber + 1} ${frame.functionName || "(anonymous)"}`
}

/**
 * Several profiles (rounds of the same kind) summed into one summary.
 * @param {Array<{ nodes: Array<{ id: number, callFrame: any, children?: number[] }>, samples: number[], timeDeltas: number[] }>} profiles
 * @param {{ top?: number }} [options]
 */
function summarizeProfiles(profiles, { top = 15 } = {}) {
  let totalUs = 0
  let pluginInclusiveUs = 0
  const byOrigin = {}
  const pluginFunctions = new Map()
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]))
    const parentOf = new Map()
    for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
    // Whether a node has a plugin frame at or above it, memoised: the stacks share their tops.
    const underPlugin = new Map()
    const isUnderPlugin = (id) => {
      if (underPlugin.has(id)) return underPlugin.get(id)
      const node = byId.get(id)
      const result =
        originOf(node.callFrame) === "plugin" || (parentOf.has(id) ? isUnderPlugin(parentOf.get(id)) : false)
      underPlugin.set(id, result)
      return result
    }
    const selfUs = new Map()
    profile.samples.forEach((id, index) => {
      const delta = profile.timeDeltas[index + 1] ?? 0
      selfUs.set(id, (selfUs.get(id) ?? 0) + delta)
      totalUs += delta
      if (isUnderPlugin(id)) pluginInclusiveUs += delta
    })
    for (const [id, us] of selfUs) {
      const frame = byId.get(id).callFrame
      const origin = originOf(frame)
      byOrigin[origin] = (byOrigin[origin] ?? 0) + us
      if (origin === "plugin") {
        const label = frameLabel(frame)
        pluginFunctions.set(label, (pluginFunctions.get(label) ?? 0) + us)
      }
    }
  }
  const ms = (us) => Math.round(us / 10) / 100
  return {
    totalMs: ms(totalUs),
    busyMs: ms(totalUs - (byOrigin.idle ?? 0)),
    pluginInclusiveMs: ms(pluginInclusiveUs),
    byOriginMs: Object.fromEntries(
      Object.entries(byOrigin)
        .sort((a, b) => b[1] - a[1])
        .map(([origin, us]) => [origin, ms(us)]),
    ),
    topPluginFunctions: [...pluginFunctions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([label, us]) => ({ function: label, selfMs: ms(us) })),
  }
}

module.exports = { summarizeProfiles }
