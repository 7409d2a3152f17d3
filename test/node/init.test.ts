import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { init } from "../../src/infra/init/cli.ts"

import { nextMigrationTag } from "../../src/infra/init/migration-tag.ts"

const root = path.resolve(import.meta.dirname, "../..")
const c3 = path.join(root, "test/adopter/c3")
const shipped = readdirSync(path.join(root, "src/infra/migrations")).filter((file) => file.endsWith(".sql"))

/** create-cloudflare's hello world (test/adopter/c3) in a temp folder, with one of its two configs. */
function helloWorld(config: "wrangler.toml" | "wrangler.jsonc") {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-init-"))
  for (const file of ["package.json", "tsconfig.json", ".gitignore", "src", config]) {
    cpSync(path.join(c3, file), path.join(dir, file), { recursive: true })
  }
  return dir
}

/** Runs `slotwise init` in `cwd` as the bin does, answering its exit status and output. */
function run(cwd: string, ...argv: string[]) {
  const [stdout, stderr]: [string[], string[]] = [[], []]
  const code = init(argv, { cwd, stdout: (line) => stdout.push(line), stderr: (line) => stderr.push(line) })
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") }
}

/** Every file under `dir` and its content's hash: what a run that writes nothing leaves as it was. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const full = path.join(entry.parentPath, entry.name)
    files[path.relative(dir, full)] = createHash("sha1").update(readFileSync(full)).digest("hex")
  }
  return files
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8")

describe("npx slotwise init", () => {
  for (const config of ["wrangler.toml", "wrangler.jsonc"] as const) {
    it(`adds slotwise to create-cloudflare's hello world (${config}), and a second run changes nothing`, () => {
      const dir = helloWorld(config)
      const entryBefore = read(dir, "src/index.ts")
      const first = run(dir)
      expect(first.code).toBe(0)
      expect(read(dir, config)).toMatch(/minify|"minify"/)
      expect(read(dir, "src/jobs.ts")).toContain('name: "example.hello"')
      expect(read(dir, "src/consumers.ts")).toContain("export const consumers: Consumer[] = []")
      const entry = read(dir, "src/index.ts")
      // Every line of the Worker's own is kept, comments included; only `export default {` became `const worker = {`.
      const [header, code] = entryBefore.split(/(?=export default \{)/)
      expect(entry.startsWith(`${header}import { Hono } from "hono";`)).toBe(true)
      expect(entry).toContain(code?.replace("export default {", "const worker = {"))
      expect(entry).toContain("export class ScheduleStream extends Schedules.durableObject({ consumers }) {}")
      expect(entry).toContain('if (controller.cron === "* * * * *") return slotwiseHeartbeat(controller, env, ctx);')
      expect(entry).toContain('return new Response("Hello World!");')
      expect(read(dir, ".dev.vars")).toMatch(/^ADMIN_TOKEN=[0-9a-f]{48}\n$/)
      // create-cloudflare's .gitignore has `.dev.vars*` already.
      expect(read(dir, ".gitignore")).toBe(readFileSync(path.join(c3, ".gitignore"), "utf8"))
      expect(readdirSync(path.join(dir, "migrations"))).toEqual(
        shipped.map((file, i) => `${String(i + 1).padStart(4, "0")}_slotwise_${file.replace(/^\d+_/, "")}`),
      )
      expect(first.stdout).toContain("npx wrangler d1 create hello-c3")

      const before = tree(dir)
      const second = run(dir)
      expect(second.code).toBe(0)
      expect(second.stdout).toBe(`slotwise init: ${config} and its Worker have all slotwise needs; nothing changed`)
      expect(tree(dir)).toEqual(before)
    })
  }

  it("--dry-run prints each change as a diff and writes nothing, never the token", () => {
    const dir = helloWorld("wrangler.toml")
    const before = tree(dir)
    const dry = run(dir, "--dry-run")
    expect(dry.code).toBe(0)
    expect(tree(dir)).toEqual(before)
    expect(dry.stdout).toContain("would change (dry run: nothing written)")
    expect(dry.stdout).toContain("--- wrangler.toml\n+++ wrangler.toml")
    expect(dry.stdout).toContain("+minify = true")
    expect(dry.stdout).toContain("+export class ScheduleStream extends Schedules.durableObject({ consumers }) {}")
    expect(dry.stdout).toContain("+ migrations/0001_slotwise_jobs_leases.sql")
    expect(dry.stdout).not.toMatch(/ADMIN_TOKEN=/)
    expect(run(dir).code).toBe(0)
    expect(run(dir, "--dry-run").stdout).toContain("nothing changed")
  })

  it("numbers slotwise's migrations after the Worker's own, in the order they ship", () => {
    const dir = helloWorld("wrangler.toml")
    mkdirSync(path.join(dir, "migrations"))
    writeFileSync(path.join(dir, "migrations/0001_users.sql"), "CREATE TABLE users (id INTEGER);")
    writeFileSync(path.join(dir, "migrations/0002_orders.sql"), "CREATE TABLE orders (id INTEGER);")
    expect(run(dir).code).toBe(0)
    expect(readdirSync(path.join(dir, "migrations")).slice(2)).toEqual(
      shipped.map((file, i) => `${String(i + 3).padStart(4, "0")}_slotwise_${file.replace(/^\d+_/, "")}`),
    )
  })

  it("leaves a WorkerEntrypoint entry as it is, and prints the lines to add for that shape", () => {
    const dir = helloWorld("wrangler.jsonc")
    const entry = [
      'import { WorkerEntrypoint } from "cloudflare:workers"',
      "export default class extends WorkerEntrypoint<Env> {",
      '  async fetch() { return new Response("mine") }',
      "}",
      "",
    ].join("\n")
    writeFileSync(path.join(dir, "src/index.ts"), entry)
    const done = run(dir)
    expect(done.code).toBe(0)
    expect(read(dir, "src/index.ts")).toBe(entry)
    expect(done.stdout).toContain("init left the entry as it is: its default export is a WorkerEntrypoint class. Add:")
    for (const line of [
      '  import { Jobs, Schedules } from "slotwise";',
      '  import { jobs } from "./jobs";',
      "  const slotwiseJobs = Jobs.registry([...jobs, Schedules.watchdog]);",
      "  export class ScheduleStream extends Schedules.durableObject({ consumers }) {}",
      '    if (controller.cron === "* * * * *") await slotwiseHeartbeat(controller, this.env, this.ctx);',
    ]) {
      expect(done.stdout).toContain(line)
    }
    expect(done.stdout).not.toContain("app.route")
  })

  it("refuses a fixed name the Worker uses for something else, naming it, and writes nothing", () => {
    const cases: Array<[string, string, RegExp]> = [
      ["DB as a KV namespace", '[[kv_namespaces]]\nbinding = "DB"\nid = "k"\n', /the binding DB is a KV namespace/],
      [
        "SCHEDULES bound to another class",
        '[[durable_objects.bindings]]\nname = "SCHEDULES"\nclass_name = "Counter"\n',
        /SCHEDULES binds the class Counter, which is not slotwise's ScheduleStream/,
      ],
      [
        "SCHEDULES bound to another Worker's class",
        '[[durable_objects.bindings]]\nname = "SCHEDULES"\nclass_name = "ScheduleStream"\nscript_name = "other"\n',
        /SCHEDULES binds ScheduleStream of the Worker "other"/,
      ],
      ["ADMIN_TOKEN as a var", '[vars]\nADMIN_TOKEN = "open"\n', /ADMIN_TOKEN is a plain var/],
      [
        "SLOTWISE_METRICS as a KV namespace",
        '[[kv_namespaces]]\nbinding = "SLOTWISE_METRICS"\nid = "k"\n',
        /the binding SLOTWISE_METRICS is a KV namespace, but slotwise writes its data points to it/,
      ],
      [
        "ScheduleStream with key-value storage",
        '[[migrations]]\ntag = "v1"\nnew_classes = ["ScheduleStream"]\n',
        /migration v1 declares ScheduleStream in new_classes/,
      ],
    ]
    for (const [what, toml, message] of cases) {
      const dir = helloWorld("wrangler.toml")
      writeFileSync(path.join(dir, "wrangler.toml"), `${read(dir, "wrangler.toml")}\n${toml}`)
      const before = tree(dir)
      const refused = run(dir)
      expect(refused.code, what).toBe(1)
      expect(refused.stderr, what).toMatch(message)
      expect(refused.stderr, what).toMatch(/^slotwise init: wrangler\.toml: .*; init changed nothing$/)
      expect(tree(dir), what).toEqual(before)
      rmSync(dir, { recursive: true })
    }
  })

  it("refuses an entry with a ScheduleStream class of its own, and keeps a slotwise class bound under another name", () => {
    const dir = helloWorld("wrangler.toml")
    writeFileSync(path.join(dir, "src/index.ts"), "export class ScheduleStream {}\nexport default {}\n")
    expect(run(dir).stderr).toMatch(/the entry has a class ScheduleStream of its own/)

    const named = helloWorld("wrangler.toml")
    const toml = '\n[[durable_objects.bindings]]\nname = "SCHEDULES"\nclass_name = "Streams"\n'
    writeFileSync(path.join(named, "wrangler.toml"), `${read(named, "wrangler.toml")}${toml}`)
    const entry =
      'import { Schedules } from "slotwise"\nexport class Streams extends Schedules.durableObject({ consumers: [] }) {}\n'
    writeFileSync(path.join(named, "src/index.ts"), entry)
    expect(run(named).code).toBe(0)
    expect(read(named, "wrangler.toml")).toContain('[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["Streams"]')
  })

  it("binds DB to the D1 database the Worker has, and puts slotwise's migrations in its folder", () => {
    const dir = helloWorld("wrangler.toml")
    const own =
      '\n[[d1_databases]]\nbinding = "OWN"\ndatabase_name = "own"\ndatabase_id = "id-1"\nmigrations_dir = "db"\n'
    writeFileSync(path.join(dir, "wrangler.toml"), `${read(dir, "wrangler.toml")}${own}`)
    const done = run(dir)
    expect(done.code).toBe(0)
    expect(read(dir, "wrangler.toml")).toContain(
      '[[d1_databases]]\nbinding = "DB"\ndatabase_name = "own"\ndatabase_id = "id-1"\nmigrations_dir = "db"',
    )
    expect(readdirSync(path.join(dir, "db"))).toHaveLength(shipped.length)
    expect(done.stdout).toContain("DB binds the database OWN binds")
    expect(done.stdout).not.toContain("npx wrangler d1 create")
  })

  it("never overwrites an admin token, keeps the file's other lines, and uses .env where the Worker keeps its secrets", () => {
    const kept = helloWorld("wrangler.jsonc")
    writeFileSync(path.join(kept, ".dev.vars"), "ADMIN_TOKEN=mine\n")
    expect(run(kept).code).toBe(0)
    expect(read(kept, ".dev.vars")).toBe("ADMIN_TOKEN=mine\n")

    const added = helloWorld("wrangler.jsonc")
    writeFileSync(path.join(added, ".dev.vars"), "API_KEY=k")
    expect(run(added).code).toBe(0)
    expect(read(added, ".dev.vars")).toMatch(/^API_KEY=k\nADMIN_TOKEN=[0-9a-f]{48}\n$/)

    const dotenv = helloWorld("wrangler.jsonc")
    writeFileSync(path.join(dotenv, ".env"), "API_KEY=k\n")
    rmSync(path.join(dotenv, ".gitignore"))
    const done = run(dotenv)
    expect(read(dotenv, ".env")).toMatch(/^API_KEY=k\nADMIN_TOKEN=[0-9a-f]{48}\n$/)
    expect(existsSync(path.join(dotenv, ".dev.vars"))).toBe(false)
    // No .gitignore: init creates one that keeps the secrets out of git.
    expect(read(dotenv, ".gitignore")).toBe(".env\n")
    expect(done.stdout).toContain("created .gitignore:\n    + created, ignoring .env")

    const ignored = helloWorld("wrangler.jsonc")
    writeFileSync(path.join(ignored, ".gitignore"), "node_modules/")
    run(ignored)
    expect(read(ignored, ".gitignore")).toBe("node_modules/\n.dev.vars\n")
  })

  it("says where the config is missing, main is missing, or an argument is unknown", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "slotwise-init-"))
    expect(run(empty).stderr).toMatch(/no wrangler\.json, wrangler\.jsonc, wrangler\.toml here/)
    writeFileSync(path.join(empty, "wrangler.toml"), 'name = "w"\n')
    expect(run(empty)).toMatchObject({ code: 1, stderr: expect.stringMatching(/wrangler\.toml has no main/) })
    expect(run(empty, "--force")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown argument "--force"/),
    })
    expect(readdirSync(empty)).toEqual(["wrangler.toml"])
  })
})

describe("the next Durable Object migration tag", () => {
  it("is v1 first, the vN after a vN, else v<count + 1>, and never one already used", () => {
    expect(nextMigrationTag([])).toBe("v1")
    expect(nextMigrationTag(["v1", "v2"])).toBe("v3")
    expect(nextMigrationTag(["v9"])).toBe("v10")
    expect(nextMigrationTag(["V4"])).toBe("V5")
    expect(nextMigrationTag(["initial", "counter"])).toBe("v3")
    expect(nextMigrationTag(["v3", "add-counter"])).toBe("v4")
  })
})
