#!/usr/bin/env node
/** nexi-doctor: checks a Nexi provider configuration before going live; exits 1 when a blocking check fails. */
import { clientsFor } from "../../core/clients"
import { parseNexiOptions } from "../../core/options"
import { parseDoctorArguments, USAGE } from "./cli-args"
import { doctorOptionsInput } from "./cli-options"
import { formatReport, runDoctor } from "./run-doctor"

async function main(): Promise<void> {
  let command: ReturnType<typeof parseDoctorArguments>
  try {
    command = parseDoctorArguments(process.argv.slice(2), process.env)
  } catch (error) {
    process.stderr.write(`nexi-doctor: ${(error as Error).message}\n${USAGE}\n`)
    process.exitCode = 2
    return
  }
  if (command.kind === "help") {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const { input, source } = doctorOptionsInput(command, process.cwd())
  let options: ReturnType<typeof parseNexiOptions>
  try {
    options = parseNexiOptions(input)
  } catch (error) {
    // The message names the options by path, never their values.
    process.stdout.write(`FAIL  Options (${source}): ${(error as Error).message}\n`)
    process.exitCode = 1
    return
  }
  const report = await runDoctor({ options, clients: clientsFor(options), currencies: command.currencies })
  if (command.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  else process.stdout.write(`Nexi doctor: options from ${source}\n${formatReport(report)}\n`)
  process.exitCode = report.blocking ? 1 : 0
}

main().catch((error: unknown) => {
  process.stderr.write(`nexi-doctor: ${(error as Error).message}\n`)
  process.exitCode = 1
})
