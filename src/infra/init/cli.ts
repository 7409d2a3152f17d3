import { createTwoFilesPatch } from "diff"
import { InitRefusal } from "./errors.ts"
import { applyInit, CONFIG_FILES, type InitPlan, planInit } from "./init-plan.ts"

export const USAGE = `Usage: npx slotwise init [--dry-run] [--config <file>]

Adds slotwise to the Worker in this folder, in one step (README, "Add slotwise to an existing
Worker"). In its wrangler config (${CONFIG_FILES.join(", ")}; comments, triggers, bindings and
migrations kept): minify = true, the heartbeat's cron "* * * * *" beside the Worker's own, the D1
binding DB, the Durable Object binding SCHEDULES and its migration under the Worker's next tag.
In each environment with triggers, d1_databases, durable_objects or migrations of its own: the same.
Beside it: slotwise's D1 migrations after the Worker's own, a jobs file with one example job, a
consumers file, ADMIN_TOKEN in .dev.vars (never overwritten, never in a file git tracks; .gitignore
keeps it out), tsconfig.json's moduleResolution set to bundler where it cannot read package exports.
The entry is wired whatever its shape (an exported handler object, with or without scheduled, or
export default app): its own handlers answer as before, admin at /admin, the heartbeat on its cron,
the ScheduleStream class; an entry of another shape is left as it is and the lines to add are
printed. Every file is written whole or not at all. A second run changes nothing. A name slotwise needs that the
Worker uses for something else (a binding DB that is not a D1 database, SCHEDULES bound to another
class, a var ADMIN_TOKEN, a SLOTWISE_METRICS that is not an Analytics Engine dataset) is refused,
naming it, and nothing is written.

Options:
  --dry-run        print the changes (a diff of each file) and write nothing
  --config <file>  the wrangler config (default: the first of ${CONFIG_FILES.join(", ")})
  -h, --help       show this help

Exit status: 0, 1 when init refused (nothing written), 2 for a bad argument.`

export interface InitArgs {
  dryRun: boolean
  config: string | undefined
  help: boolean
}

/** `init`'s arguments; throws InitRefusal naming a bad one. */
export function parseInitArgs(argv: readonly string[]): InitArgs {
  const args: InitArgs = { dryRun: false, config: undefined, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === "--dry-run") args.dryRun = true
    else if (arg === "-h" || arg === "--help") args.help = true
    else if (arg === "--config" || arg.startsWith("--config=")) {
      const value = arg.includes("=") ? arg.slice("--config=".length) : argv[++i]
      if (!value) throw new UsageError("--config needs a file")
      args.config = value
    } else throw new UsageError(`unknown argument "${arg}"`)
  }
  return args
}

export class UsageError extends InitRefusal {
  override name = "UsageError"
}

/** The run's report: what changed (or would), what to add by hand, and the next commands. */
export function report(plan: InitPlan, dryRun: boolean): string[] {
  const lines: string[] = []
  const changed = plan.writes.length + plan.copies.length > 0
  if (!changed) lines.push(`slotwise init: ${plan.config} and its Worker have all slotwise needs; nothing changed`)
  else lines.push(`slotwise init: ${dryRun ? "would change (dry run: nothing written)" : "changed"}:`)
  for (const write of plan.writes) {
    lines.push(`  ${write.before === undefined ? "created" : "edited"} ${write.file}:`)
    for (const what of write.what) lines.push(`    + ${what}`)
  }
  if (plan.copies.length > 0) {
    lines.push("  copied slotwise's D1 migrations, after the Worker's own:")
    for (const { to } of plan.copies) lines.push(`    + ${to}`)
  }
  if (dryRun) {
    for (const write of plan.writes.filter((item) => !item.secret)) {
      const patch = createTwoFilesPatch(write.file, write.file, write.before ?? "", write.after, "", "", { context: 2 })
      lines.push(
        "",
        ...patch
          .trimEnd()
          .split("\n")
          .filter((line) => !/^(=+|Index: .*)$/.test(line)),
      )
    }
  }
  if (plan.manual !== undefined) {
    const add = plan.manual.lines.length > 0 ? " Add:" : ""
    lines.push("", `init left the entry as it is: ${plan.manual.why}.${add}`)
    if (add) lines.push("", ...plan.manual.lines.map((line) => (line === "" ? "" : `  ${line}`)))
  }
  for (const note of plan.notes) lines.push("", `Note: ${note}.`)
  if (changed) {
    lines.push(
      "",
      "Next:",
      `  ${plan.typegen.padEnd(44)}  # the binding types, with DB, SCHEDULES and ADMIN_TOKEN`,
      "  npx wrangler d1 migrations apply DB --local",
      "  npx wrangler dev                              # and beside it: npx slotwise-heartbeat",
    )
    const create = plan.databaseToCreate ? `npx wrangler d1 create ${plan.databaseToCreate} (its id under DB), ` : ""
    lines.push(`Before the first deploy: ${create}npx wrangler secret put ADMIN_TOKEN`)
  }
  return lines
}

export interface Io {
  cwd: string
  stdout: (line: string) => void
  stderr: (line: string) => void
}

/** `slotwise init …`: answers the exit status. */
export function init(argv: readonly string[], { cwd, stdout, stderr }: Io): number {
  let args: InitArgs
  try {
    args = parseInitArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    stderr(`slotwise init: ${error.message}\n\n${USAGE}`)
    return 2
  }
  if (args.help) {
    stdout(USAGE)
    return 0
  }
  let plan: InitPlan
  try {
    plan = planInit({ cwd, ...(args.config === undefined ? {} : { config: args.config }) })
  } catch (error) {
    if (!(error instanceof InitRefusal)) throw error
    stderr(`slotwise init: ${error.message}`)
    return 1
  }
  if (!args.dryRun) applyInit(cwd, plan)
  for (const line of report(plan, args.dryRun)) stdout(line)
  return 0
}
