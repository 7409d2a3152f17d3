#!/usr/bin/env node
// `npx slotwise init [--dry-run] [--config FILE]`: adds slotwise to the Worker in this folder (`npx slotwise --help`).
import { INSTALL_WRANGLER, installedWrangler, nodeProblem, refuse, wranglerProblem } from "./preflight.js"

const USAGE = `Usage: npx slotwise <command>

Commands:
  init    add slotwise to the Worker in this folder (npx slotwise init --help)

The other commands: npx slotwise-migrations, npx slotwise-heartbeat (each with --help).`

const [command, ...args] = process.argv.slice(2)
if (command === undefined || command === "-h" || command === "--help") {
  console.log(USAGE)
  process.exit(command === undefined ? 2 : 0)
}
if (command !== "init") {
  console.error(`slotwise: unknown command "${command}"\n\n${USAGE}`)
  process.exit(2)
}
refuse("slotwise init", nodeProblem())
refuse("slotwise init", wranglerProblem(process.cwd()))
if (installedWrangler(process.cwd()) === undefined) {
  console.error(`slotwise init: wrangler is not installed here: ${INSTALL_WRANGLER}`)
}
const { init } = await import("../dist/init/index.js")
process.exit(init(args, { cwd: process.cwd(), stdout: console.log, stderr: console.error }))
