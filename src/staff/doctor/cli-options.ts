/** The provider options nexi-doctor checks: the config entry's, with flags and environment over them. */
import type { DoctorCommand } from "./cli-args"
import { configPathOf, nexiEntryOptions } from "./store-config-file"

type RunCommand = Extract<DoctorCommand, { kind: "run" }>

export function doctorOptionsInput(
  command: RunCommand,
  cwd: string,
): { input: Record<string, unknown>; source: string } {
  const file = command.noConfig ? undefined : configPathOf(command.config, cwd)
  const fromConfig = file ? nexiEntryOptions(file, command.entry) : {}
  const input: Record<string, unknown> = { ...fromConfig, ...command.overrides }
  const configApm = fromConfig.apm as Record<string, unknown> | undefined
  if (configApm || Object.keys(command.apmOverrides).length > 0) {
    input.apm = { ...(configApm ?? {}), ...command.apmOverrides, timeoutMs: command.timeoutMs, retries: 0 }
  }
  // An interactive check answers in seconds: one attempt per request.
  input.timeoutMs = command.timeoutMs
  input.retries = 0
  return {
    input,
    source: file ? `${file}${command.entry ? ` (entry ${command.entry})` : ""}` : "flags and environment variables",
  }
}
