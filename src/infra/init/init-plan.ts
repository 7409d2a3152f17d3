import { randomBytes } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { parse } from "jsonc-parser"
import { HEARTBEAT_CRON } from "../jobs/handlers/heartbeat.ts"
import { type WriteFs, writeAtomic } from "./atomic-write.ts"
import { BINDING } from "./bindings.ts"
import { withoutBom } from "./byte-order-mark.ts"
import { wranglerConfig } from "./config.ts"
import { planConfig } from "./config-plan.ts"
import type { ConfigObject } from "./edits.ts"
import { isWired } from "./entry-shape.ts"
import { wireEntry } from "./entry-wiring.ts"
import { InitRefusal } from "./errors.ts"
import { consumersFile, EXAMPLE_JOB, jobsFile } from "./example-files.ts"
import { trackedByGit } from "./git-tracked.ts"
import { editJsonc, readJsonc } from "./jsonc.ts"
import { copyMigrations, type MigrationCopy, plannedMigrations } from "./migrations.ts"
import { ignoring, secretsFile, withAdminToken } from "./secrets.ts"
import { editToml, readToml } from "./toml.ts"
import { planTsconfig } from "./tsconfig-plan.ts"
import { typegenOf } from "./typegen.ts"

/** wrangler's own order when a folder has more than one. */
export const CONFIG_FILES = ["wrangler.json", "wrangler.jsonc", "wrangler.toml"] as const

/** A file init writes: its text before (none: created) and after, and what changed in it, in words. */
export interface FileWrite {
  file: string
  before: string | undefined
  after: string
  what: string[]
  /** A secret's file: its text is never printed. */
  secret?: boolean
}

/** Everything one run changes, planned before anything is written. */
export interface InitPlan {
  config: string
  writes: FileWrite[]
  copies: MigrationCopy[]
  /** What the user should know, or add by hand (an entry init does not rewrite). */
  notes: string[]
  /** Why init left the entry as it is, and the lines to add by hand for its shape. */
  manual: Manual | undefined
  /** The command that generates the Worker's binding types (its own script, when it has one). */
  typegen: string
  /** The D1 database to create before the first deploy, when DB names none yet. */
  databaseToCreate: string | undefined
}

/** An entry init does not wire: why, and the exact lines for its shape. */
export interface Manual {
  why: string
  lines: string[]
}

export interface InitOptions {
  /** The Worker's folder. */
  cwd: string
  /** The config file, relative to cwd; default: the first of CONFIG_FILES there. */
  config?: string
  /** The admin token written when the Worker has none; default 24 random bytes in hex. */
  token?: () => string
  /** Whether git tracks a file (relative to cwd); init never writes a secret into one. Default: asks git. */
  tracked?: (file: string) => boolean
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : undefined)

function findConfig(cwd: string, config: string | undefined): string {
  if (config !== undefined) {
    if (!existsSync(path.resolve(cwd, config))) throw new InitRefusal(`${config} does not exist`)
    return config
  }
  const found = CONFIG_FILES.find((file) => existsSync(path.join(cwd, file)))
  if (found === undefined) {
    throw new InitRefusal(`no ${CONFIG_FILES.join(", ")} here: run init in the Worker's folder (or pass --config)`)
  }
  return found
}

/** A relative import from the entry to a file beside it, without extension (wrangler's esbuild and tsc's Bundler). */
const specifier = (file: string) => `./${path.basename(file).replace(/\.[cm]?[jt]sx?$/, "")}`

/**
 * What `slotwise init` would change in the Worker at `cwd`, read but never written: the config's additions, the
 * engine's migrations after the Worker's own, the jobs and consumers files, the entry (wired for its shape, or the
 * lines to add), tsconfig.json's moduleResolution, the admin token. Throws InitRefusal, naming the file and what to
 * do, where it cannot: the plan is whole or there is none.
 */
export function planInit({
  cwd,
  config: given,
  token = () => randomBytes(24).toString("hex"),
  tracked = (file) => trackedByGit(cwd, file),
}: InitOptions): InitPlan {
  const config = findConfig(cwd, given)
  const at = (file: string) => path.join(cwd, path.dirname(config), file)
  const raw = read(path.join(cwd, config)) as string
  const { text: configText, restore } = withoutBom(raw)
  const toml = config.endsWith(".toml")
  const value: ConfigObject = toml ? readToml(config, configText) : readJsonc(config, configText)
  const main = value.main
  if (typeof main !== "string") throw new InitRefusal(`${config} has no main: slotwise needs a Worker script`)
  const entryText = read(at(main))
  if (entryText === undefined) throw new InitRefusal(`${config}'s main is ${main}, which does not exist`)
  const plan = planConfig(config, value, entryText)
  const writes: FileWrite[] = []
  const notes = [...plan.notes]
  if (plan.edits.length > 0) {
    const edited = toml ? editToml(config, configText, plan.edits) : editJsonc(config, configText, plan.edits)
    writes.push({ file: config, before: raw, after: restore(edited), what: plan.edits.map((edit) => edit.what) })
  }
  const tsconfigText = read(at("tsconfig.json"))
  if (tsconfigText !== undefined) {
    const { text, restore: again } = withoutBom(tsconfigText)
    const edit = planTsconfig("tsconfig.json", text)
    if (edit) writes.push({ file: "tsconfig.json", before: tsconfigText, after: again(edit.after), what: [edit.what] })
  }
  const packageJson = read(at("package.json"))
  const typegen = typegenOf(packageJson === undefined ? undefined : parse(withoutBom(packageJson).text))

  const typescript = /\.[cm]?tsx?$/.test(main)
  const beside = (name: string) => path.join(path.dirname(main), `${name}.${typescript ? "ts" : "js"}`)
  const [jobs, consumers] = [beside("jobs"), beside("consumers")]
  const created = (file: string, text: string, what: string) => {
    const before = read(at(file))
    if (before === undefined) writes.push({ file, before, after: text, what: [what] })
    return before ?? text
  }
  const jobsText = created(jobs, jobsFile(), `the jobs file, with the example job ${EXAMPLE_JOB}`)
  const consumersText = created(consumers, consumersFile(typescript), "the consumers file (none yet)")

  const specifiers = { jobs: specifier(jobs), consumers: specifier(consumers) }
  let manual: Manual | undefined
  const unexported = [
    ...(/export\s+const\s+jobs\b/.test(jobsText) ? [] : [`${jobs} (export const jobs)`]),
    ...(/export\s+const\s+consumers\b/.test(consumersText) ? [] : [`${consumers} (export const consumers)`]),
  ]
  if (!isWired(entryText, plan.className)) {
    const ownHeartbeatCron = wranglerConfig(config, value).triggers?.crons?.includes(HEARTBEAT_CRON) === true
    const context = {
      className: plan.className,
      specifiers,
      typescript,
      envType: typegen.envType,
      ownHeartbeatCron,
      entry: main,
    }
    const wiring = wireEntry(entryText, context)
    if (unexported.length > 0) {
      const lines = wiring.kind === "manual" ? wiring.lines : []
      const why = `${unexported.join(" and ")} is the Worker's own and does not export what slotwise's wiring imports`
      manual = { why, lines }
    } else if (wiring.kind === "wired") {
      writes.push({ file: main, before: entryText, after: wiring.text, what: [wiring.what] })
    } else manual = { why: wiring.why, lines: wiring.lines }
  }

  const secrets = secretsFile((file) => existsSync(at(file)))
  const secretsBefore = read(at(secrets))
  const secretsAfter = withAdminToken(secretsBefore, token())
  const gitignore = read(at(".gitignore"))
  const secretsTracked = secretsBefore !== undefined && tracked(path.join(path.dirname(config), secrets))
  if (secretsAfter !== undefined && secretsTracked) {
    notes.push(
      `git tracks ${secrets}, so init wrote no admin token into it: put ${BINDING.adminToken}=<a random token> in a ` +
        "file git ignores (.dev.vars, listed in .gitignore)",
    )
  } else if (secretsAfter !== undefined) {
    const what = `${BINDING.adminToken}, a random token for admin (wrangler dev reads it)`
    writes.push({ file: secrets, before: secretsBefore, after: secretsAfter, what: [what], secret: true })
  }
  // The secrets file out of git: .gitignore created when there is none.
  const ignored = secretsTracked ? undefined : ignoring(gitignore ?? "", secrets)
  if (ignored !== undefined) {
    const what = gitignore === undefined ? `created, ignoring ${secrets}` : secrets
    writes.push({ file: ".gitignore", before: gitignore, after: ignored, what: [what] })
  }

  const migrationsDir = path.join(path.dirname(config), plan.migrationsDir)
  const { copies } = plannedMigrations(path.join(cwd, migrationsDir))
  const { database } = plan
  const databaseToCreate = database.database_id === undefined ? String(database.database_name ?? "") : undefined
  const relative = copies.map(({ from, to }) => ({ from, to: path.relative(cwd, to) }))
  return {
    config,
    writes: writes.map(inFolder(config)),
    copies: relative,
    notes,
    manual,
    databaseToCreate,
    typegen: typegen.command,
  }
}

/** Paths from the config's folder to the Worker's (cwd's), as they are printed and written. */
const inFolder = (config: string) => (write: FileWrite) =>
  write.file === config ? write : { ...write, file: path.join(path.dirname(config), write.file) }

/** Writes the plan, each file atomically (a failed write leaves the old file whole), then the migrations. */
export function applyInit(cwd: string, plan: InitPlan, io?: WriteFs): void {
  for (const { file, after } of plan.writes) writeAtomic(path.join(cwd, file), after, io)
  copyMigrations(
    plan.copies.map(({ from, to }) => ({ from, to: path.join(cwd, to) })),
    io,
  )
}
