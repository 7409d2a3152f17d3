import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { BINDING } from "./bindings.ts"
import { planConfig } from "./config-plan.ts"
import type { ConfigObject } from "./edits.ts"
import { consumersFile, EXAMPLE_JOB, isHelloWorld, isWired, jobsFile, linesToAdd, wiredHelloWorld } from "./entry.ts"
import { InitRefusal } from "./errors.ts"
import { editJsonc, readJsonc } from "./jsonc.ts"
import { copyMigrations, type MigrationCopy, plannedMigrations } from "./migrations.ts"
import { ignoring, secretsFile, withAdminToken } from "./secrets.ts"
import { editToml, readToml } from "./toml.ts"

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
  /** The entry's lines to add by hand, when init does not rewrite it. */
  manual: string[] | undefined
  /** The D1 database to create before the first deploy, when DB names none yet. */
  databaseToCreate: string | undefined
}

export interface InitOptions {
  /** The Worker's folder. */
  cwd: string
  /** The config file, relative to cwd; default: the first of CONFIG_FILES there. */
  config?: string
  /** The admin token written when the Worker has none; default 24 random bytes in hex. */
  token?: () => string
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
 * engine's migrations after the Worker's own, the jobs and consumers files, the entry (create-cloudflare's hello
 * world only; else the lines to add), the admin token. Throws InitRefusal, naming the file and what to do, where
 * it cannot: the plan is whole or there is none.
 */
export function planInit({ cwd, config: given, token = () => randomBytes(24).toString("hex") }: InitOptions): InitPlan {
  const config = findConfig(cwd, given)
  const at = (file: string) => path.join(cwd, path.dirname(config), file)
  const configText = read(path.join(cwd, config)) as string
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
    const after = toml ? editToml(config, configText, plan.edits) : editJsonc(config, configText, plan.edits)
    writes.push({ file: config, before: configText, after, what: plan.edits.map((edit) => edit.what) })
  }

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
  let manual: string[] | undefined
  const exported = /export\s+const\s+jobs\b/.test(jobsText) && /export\s+const\s+consumers\b/.test(consumersText)
  if (typescript && isHelloWorld(entryText) && exported) {
    const after = wiredHelloWorld(entryText, plan.className, specifiers)
    const what = "create-cloudflare's hello world, wired: its fetch as before, admin at /admin, the heartbeat"
    writes.push({ file: main, before: entryText, after, what: [`${what}, ${plan.className}`] })
  } else if (!isWired(entryText, plan.className)) {
    manual = linesToAdd(plan.className, specifiers)
  }

  const secrets = secretsFile((file) => existsSync(at(file)))
  const secretsBefore = read(at(secrets))
  const secretsAfter = withAdminToken(secretsBefore, token())
  if (secretsAfter !== undefined) {
    const what = `${BINDING.adminToken}, a random token for admin (wrangler dev reads it)`
    writes.push({ file: secrets, before: secretsBefore, after: secretsAfter, what: [what], secret: true })
  }
  const gitignore = read(at(".gitignore"))
  const ignored = gitignore === undefined ? undefined : ignoring(gitignore, secrets)
  if (ignored !== undefined) writes.push({ file: ".gitignore", before: gitignore, after: ignored, what: [secrets] })
  if (gitignore === undefined) notes.push(`there is no .gitignore: keep ${secrets} out of version control`)

  const migrationsDir = path.join(path.dirname(config), plan.migrationsDir)
  const { copies } = plannedMigrations(path.join(cwd, migrationsDir))
  const { database } = plan
  const databaseToCreate = database.database_id === undefined ? String(database.database_name ?? "") : undefined
  const relative = copies.map(({ from, to }) => ({ from, to: path.relative(cwd, to) }))
  return { config, writes: writes.map(inFolder(config)), copies: relative, notes, manual, databaseToCreate }
}

/** Paths from the config's folder to the Worker's (cwd's), as they are printed and written. */
const inFolder = (config: string) => (write: FileWrite) =>
  write.file === config ? write : { ...write, file: path.join(path.dirname(config), write.file) }

/** Writes the plan: files first, then the migrations. */
export function applyInit(cwd: string, plan: InitPlan): void {
  for (const { file, after } of plan.writes) {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true })
    writeFileSync(path.join(cwd, file), after)
  }
  copyMigrations(plan.copies.map(({ from, to }) => ({ from, to: path.join(cwd, to) })))
}
