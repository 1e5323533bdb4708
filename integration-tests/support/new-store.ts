/**
 * A new Medusa store made the way a store developer makes one: a folder of its own outside this
 * repository (so nothing resolves from the repository's node_modules), a package.json naming
 * @medusajs/* at the version this repository builds against, `npm install`, the packed plugin
 * installed from its tarball, the README's `.env` block and `medusa-config.ts` as they stand,
 * and Medusa's own CLI.
 *
 * The store's dependencies without the plugin take a minute or two to install, so they are kept
 * between runs in a cache folder named after exactly what was installed (the package.json, the
 * Node major version). A folder is used only once its install finished (a marker file written
 * last); an interrupted install is thrown away and made again. The plugin itself is installed
 * afresh from the new tarball on every run.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const root = path.resolve(__dirname, "..", "..")
const INSTALL_TIMEOUT_MS = 15 * 60_000
const READY_TIMEOUT_MS = 240_000
const STOP_GRACE_MS = 5_000

/** The store's package.json before the plugin: what `create-medusa-app` gives, at our Medusa version. */
export function storePackageJson(): Record<string, unknown> {
  const ours = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>
  }
  const pick = (names: string[]) => Object.fromEntries(names.map((name) => [name, ours.devDependencies[name]]))
  return {
    name: "nexi-new-store",
    private: true,
    dependencies: pick(["@medusajs/admin-sdk", "@medusajs/cli", "@medusajs/framework", "@medusajs/medusa"]),
    devDependencies: pick(["@swc/core", "@types/node", "react", "react-dom", "ts-node", "typescript", "vite"]),
  }
}

/** `npm pack` of the built package, into a fresh folder; the tarball and the files it holds. */
export async function packPlugin(): Promise<{ tarball: string; files: string[] }> {
  if (!fs.existsSync(path.join(root, ".medusa", "server", "src", "providers", "nexi", "index.js"))) {
    throw new Error("The package is not built: run `npm run build` before this suite (npm test does).")
  }
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "nexi-pack-"))
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", packDir], {
    cwd: root,
    maxBuffer: 32 * 1024 * 1024,
  })
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  return { tarball: path.join(packDir, packed.filename), files: packed.files.map((file) => file.path) }
}

function cacheDir(manifest: Record<string, unknown>): string {
  const key = createHash("sha256")
    .update(JSON.stringify(manifest))
    .update(process.versions.node.split(".")[0])
    .digest("hex")
    .slice(0, 16)
  const base = process.env.NEXI_STORE_CACHE ?? path.join(os.homedir(), ".cache", "medusa-payment-nexi")
  return path.join(base, `new-store-${key}`)
}

async function npm(args: string[], cwd: string): Promise<void> {
  try {
    await run("npm", [...args, "--no-fund", "--no-audit", "--loglevel=error"], {
      cwd,
      timeout: INSTALL_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${stderr ?? ""}${stdout ?? ""}`)
  }
}

/** A store folder with Medusa installed and the packed plugin installed from `tarball`. */
export async function installStore(tarball: string): Promise<string> {
  const manifest = storePackageJson()
  const dir = cacheDir(manifest)
  const marker = path.join(dir, ".installed")
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
    await npm(["install"], dir)
    fs.writeFileSync(marker, new Date().toISOString())
  }
  // `--no-save`: the cached package.json stays the one the cache is named after.
  await npm(["install", "--no-save", tarball], dir)
  return dir
}

/** The first fenced block of `lang` under the README heading that starts with `heading`. */
export function readmeBlock(heading: string, lang: string): string {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")
  const at = readme.indexOf(`\n${heading}`)
  if (at < 0) throw new Error(`README.md has no heading "${heading}"`)
  const block = readme.slice(at).match(new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n```"))
  if (!block) throw new Error(`README.md has no \`\`\`${lang} block under "${heading}"`)
  return `${block[1]}\n`
}

/**
 * The commands of the first bash block under the README heading that starts with `heading`, one
 * per `npx` line, as the bin and its arguments (what follows a `#` is a comment; no quoting).
 */
export function readmeCommands(heading: string): Array<{ bin: string; args: string[] }> {
  return readmeBlock(heading, "bash")
    .split("\n")
    .map((text) => text.replace(/#.*$/, "").trim())
    .filter((text) => text.startsWith("npx "))
    .map((text) => {
      const [, bin, ...args] = text.split(/\s+/)
      return { bin, args }
    })
}

/**
 * What a store's processes inherit: none of jest's settings (NODE_ENV=test would make the
 * store load `.env.test` instead of `.env`; NODE_OPTIONS carries jest's VM flag).
 */
export function storeEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { NODE_ENV: _node, NODE_OPTIONS: _options, JEST_WORKER_ID: _worker, ...inherited } = process.env
  return { ...inherited, MEDUSA_DISABLE_TELEMETRY: "true", ...extra }
}

/** Runs a bin of the store (`medusa`, `nexi-doctor`, ...) to its end; its output, or an error with it. */
export async function storeBin(dir: string, bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout, stderr } = await run(path.join(dir, "node_modules", ".bin", bin), args, {
      cwd: dir,
      env,
      timeout: READY_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    })
    return stdout + stderr
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: unknown }
    const failure = new Error(`${bin} ${args.join(" ")} exited with ${String(code)}:\n${stderr ?? ""}${stdout ?? ""}`)
    Object.assign(failure, { output: `${stdout ?? ""}${stderr ?? ""}`, code })
    throw failure
  }
}

export interface StoreProcess {
  /** Everything the process wrote so far. */
  output(): string
  stop(): Promise<void>
}

/**
 * A long-running bin of the store (`medusa develop`, `nexi-simulator`) in a process group of its
 * own, so stopping it also ends the children it starts (develop runs the server in one). Ready
 * when `readyUrl` answers; its output also goes to `logFile`, to read after a failed run.
 */
export async function startStoreBin(input: {
  dir: string
  bin: string
  args: string[]
  env: NodeJS.ProcessEnv
  readyUrl: string
  logFile: string
}): Promise<StoreProcess> {
  fs.mkdirSync(path.dirname(input.logFile), { recursive: true })
  const log = fs.createWriteStream(input.logFile)
  let output = ""
  const child: ChildProcess = spawn(path.join(input.dir, "node_modules", ".bin", input.bin), input.args, {
    cwd: input.dir,
    env: input.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  const collect = (chunk: Buffer) => {
    log.write(chunk)
    output += chunk.toString("utf8")
  }
  child.stdout?.on("data", collect)
  child.stderr?.on("data", collect)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal)
    } catch {
      // ESRCH: nothing of the group is left
    }
  }
  const handle: StoreProcess = {
    output: () => output,
    async stop() {
      // The whole group, and SIGKILL after a grace period whatever the leader did: `medusa
      // develop` exits on SIGTERM at once, while the server it forked may still be shutting
      // down (seen running on, at full CPU, long after the suite).
      signalGroup("SIGTERM")
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))])
      signalGroup("SIGKILL")
      log.end()
    },
  }
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null) {
      await handle.stop()
      throw new Error(`${input.bin} ${input.args.join(" ")} exited with ${child.exitCode}:\n${output.slice(-4000)}`)
    }
    const ready = await fetch(input.readyUrl).then(
      (answer) => answer.ok,
      () => false,
    )
    if (ready) return handle
    if (Date.now() > deadline) {
      await handle.stop()
      throw new Error(
        `${input.bin} did not answer ${input.readyUrl} within ${READY_TIMEOUT_MS} ms:\n${output.slice(-4000)}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}
