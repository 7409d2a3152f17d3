import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { init } from "../../src/infra/init/cli.ts"
import { applyInit, planInit } from "../../src/infra/init/init-plan.ts"
// @ts-expect-error: a plain module of the adopter matrix, without types
import { writeTemplate } from "../adopter/c3-template.mjs"

/** A create-cloudflare template (from its package, a devDependency) in a temp folder. */
function template(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `slotwise-init-${name}-`))
  writeTemplate(name, dir)
  return dir
}

function run(cwd: string, ...argv: string[]) {
  const [stdout, stderr]: [string[], string[]] = [[], []]
  const code = init(argv, { cwd, stdout: (line) => stdout.push(line), stderr: (line) => stderr.push(line) })
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") }
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8")
const comments = (text: string) => text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []

/** The Worker's own lines that init must keep, in order: every line but `export default …`. */
const ownLines = (entry: string) => entry.split("\n").filter((line) => !/^export default\b/.test(line))
const inOrder = (lines: string[], text: string) => {
  let at = 0
  for (const line of lines) {
    const found = text.indexOf(line, at)
    if (found < 0) return line
    at = found + line.length
  }
  return undefined
}

function worker(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-init-own-"))
  for (const [file, text] of Object.entries(files)) {
    execFileSync("mkdir", ["-p", path.dirname(path.join(dir, file))])
    writeFileSync(path.join(dir, file), text)
  }
  return dir
}

describe("slotwise init on create-cloudflare's templates", () => {
  it("scheduled: keeps its scheduled() on its own cron beside the heartbeat, and its tsconfig reads exports", () => {
    const dir = template("scheduled")
    const entry = read(dir, "src/index.ts")
    const dry = run(dir, "--dry-run")
    expect(dry.stdout).toContain('-\t\t"moduleResolution": "node",\n+\t\t"moduleResolution": "bundler",')
    expect(run(dir).code).toBe(0)
    const wired = read(dir, "src/index.ts")
    expect(inOrder(ownLines(entry), wired)).toBeUndefined()
    expect(comments(wired).slice(0, comments(entry).length)).toEqual(comments(entry))
    // Its own cron was "* * * * *": the heartbeat runs on it, then the Worker's scheduled() as before.
    expect(wired).toContain('if (controller.cron === "* * * * *") await slotwiseHeartbeat(controller, env, ctx);')
    expect(wired).toContain("await ownWorker.scheduled?.(controller, env, ctx);")
    expect(JSON.parse(read(dir, "wrangler.jsonc")).triggers.crons).toEqual(["* * * * *"])
    expect(read(dir, "tsconfig.json")).toContain('"moduleResolution": "bundler"')
    expect(run(dir).stdout).toContain("nothing changed")
  })

  it("Durable Objects: keeps MyDurableObject, its binding and migration v1, and adds v2", () => {
    const dir = template("hello-world-durable-object")
    const entry = read(dir, "src/index.ts")
    expect(run(dir).code).toBe(0)
    const config = JSON.parse(read(dir, "wrangler.jsonc"))
    expect(config.migrations).toEqual([
      { new_sqlite_classes: ["MyDurableObject"], tag: "v1" },
      { tag: "v2", new_sqlite_classes: ["ScheduleStream"] },
    ])
    expect(config.durable_objects.bindings.map((binding: { name: string }) => binding.name)).toEqual([
      "MY_DURABLE_OBJECT",
      "SCHEDULES",
    ])
    const wired = read(dir, "src/index.ts")
    expect(inOrder(ownLines(entry), wired)).toBeUndefined()
    expect(wired).toContain("export class MyDurableObject extends DurableObject<Env> {")
    expect(wired).toContain("export class ScheduleStream extends Schedules.durableObject({ consumers }) {}")
  })

  it("Hono: export default app moves into the new export, typed by its typegen script's CloudflareBindings", () => {
    const dir = template("hono")
    const entry = read(dir, "src/index.ts")
    const done = run(dir)
    expect(done.code).toBe(0)
    const wired = read(dir, "src/index.ts")
    expect(wired).not.toContain("export default app")
    expect(inOrder(ownLines(entry), wired)).toBeUndefined()
    expect(wired.match(/import \{ Hono \} from "hono"/g)).toHaveLength(1)
    expect(wired).toContain("const ownWorker: ExportedHandler<CloudflareBindings> = app;")
    expect(wired).toContain("} satisfies ExportedHandler<CloudflareBindings>;")
    expect(wired).not.toContain("...ownWorker")
    // The Worker's own typegen, which keeps --env-interface CloudflareBindings; never `npx wrangler types`.
    expect(done.stdout).toContain("  npm run cf-typegen ")
    expect(done.stdout).not.toContain("npx wrangler types")
  })

  it("scheduled, in JavaScript: wired without types, its own scheduled() kept on its cron", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "slotwise-init-scheduled-js-"))
    writeTemplate("scheduled", dir, "c3-scheduled-js", "js")
    const entry = read(dir, "src/index.js")
    expect(run(dir).code).toBe(0)
    const wired = read(dir, "src/index.js")
    expect(inOrder(ownLines(entry), wired)).toBeUndefined()
    expect(wired).toContain("const ownWorker = worker;")
    expect(wired).toContain("await ownWorker.scheduled?.(controller, env, ctx);")
    expect(wired).not.toMatch(/ExportedHandler|satisfies/)
    expect(read(dir, "src/jobs.js")).toContain('name: "example.hello"')
  })

  it("a JavaScript entry (hello world, js) is wired without types", () => {
    const dir = worker({
      "wrangler.jsonc": '{ "name": "js", "main": "src/index.js" }\n',
      "src/index.js":
        "// mine\nexport default {\n  async fetch(request) {\n    return new Response('js') // own\n  },\n}\n",
    })
    expect(run(dir).code).toBe(0)
    const wired = read(dir, "src/index.js")
    expect(wired).toContain("const worker = {\n  async fetch(request) {\n    return new Response('js') // own")
    expect(wired).toContain("const ownWorker = worker;")
    expect(wired).not.toMatch(/ExportedHandler|<\{ Bindings/)
    expect(read(dir, "src/consumers.js")).toContain("export const consumers = [];")
  })

  it("an entry whose names the wiring would shadow is left alone, naming them", () => {
    const entry = "const jobs = [] // mine\nexport default { fetch: () => new Response(String(jobs.length)) }\n"
    const dir = worker({ "wrangler.jsonc": '{ "name": "w", "main": "src/index.ts" }\n', "src/index.ts": entry })
    const done = run(dir)
    expect(read(dir, "src/index.ts")).toBe(entry)
    expect(done.stdout).toContain(
      "init left the entry as it is: it already uses the name jobs, which the wiring declares",
    )
  })

  it("an existing jobs file that does not export jobs: the entry is left alone and the reason named", () => {
    const dir = template("scheduled")
    writeFileSync(path.join(dir, "src/jobs.ts"), "export const nightly = 1\n")
    const entry = read(dir, "src/index.ts")
    const done = run(dir)
    expect(read(dir, "src/index.ts")).toBe(entry)
    expect(done.stdout).toContain("init left the entry as it is: src/jobs.ts (export const jobs) is the Worker's own")
  })
})

describe("slotwise init edits a config as a careful human does", () => {
  it("JSONC: a comment stays with its entry, compact arrays stay compact, output in JSONC's syntax", () => {
    const config = [
      "{",
      '  "name": "w",',
      '  "main": "src/index.ts", // the entry',
      '  "triggers": {',
      '    "crons": [',
      '      "30 2 * * *", // nightly report',
      "    ]",
      "  },",
      '  "d1_databases": [{ "binding": "OWN", "database_name": "own", "database_id": "id-1" }],',
      "}",
      "",
    ].join("\n")
    const dir = worker({ "wrangler.jsonc": config, "src/index.ts": "export default {}\n" })
    const done = run(dir)
    const after = read(dir, "wrangler.jsonc")
    expect(after).toContain('      "30 2 * * *", // nightly report\n      "* * * * *",\n    ]')
    expect(after).toContain('  "main": "src/index.ts", // the entry\n')
    expect(after).toContain(
      '"d1_databases": [{ "binding": "OWN", "database_name": "own", "database_id": "id-1" }, ' +
        '{ "binding": "DB", "database_name": "own", "database_id": "id-1" }],',
    )
    expect(comments(after)).toEqual(comments(config))
    expect(done.stdout).toContain('+ "minify": true')
    expect(done.stdout).not.toContain("minify = true")
  })

  it("keeps a byte order mark and CRLF line ends, in TOML and JSONC", () => {
    const toml = '\uFEFFname = "w"\r\nmain = "src/index.ts"\r\n\r\n[triggers]\r\ncrons = ["0 3 * * *"] # nightly\r\n'
    const jsonc = '\uFEFF{\r\n  "name": "w",\r\n  "main": "src/index.ts" // entry\r\n}\r\n'
    for (const [file, text] of [
      ["wrangler.toml", toml],
      ["wrangler.jsonc", jsonc],
    ] as const) {
      const dir = worker({
        [file]: text,
        "src/index.ts": "export default {\r\n  fetch: () => new Response('x'),\r\n}\r\n",
      })
      const done = run(dir)
      expect(done.code, done.stderr).toBe(0)
      const after = read(dir, file)
      expect(after.startsWith("\uFEFF"), file).toBe(true)
      expect(after.replaceAll("\r\n", "").includes("\n"), file).toBe(false)
      expect(read(dir, "src/index.ts").replaceAll("\r\n", "").includes("\n")).toBe(false)
      expect(run(dir).stdout).toContain("nothing changed")
    }
  })

  it("writes each file atomically: a failed write leaves the old config whole and no temporary file", () => {
    const dir = template("scheduled")
    const before = read(dir, "wrangler.jsonc")
    const plan = planInit({ cwd: dir })
    const failing = {
      mkdirSync: () => undefined,
      writeFileSync: (file: string, text: string) => writeFileSync(file, text.slice(0, 10)),
      renameSync: () => {
        throw new Error("ENOSPC: no space left on device")
      },
      rmSync: (file: string) => execFileSync("rm", ["-f", file]),
    }
    expect(() => applyInit(dir, plan, failing)).toThrow(/ENOSPC/)
    expect(read(dir, "wrangler.jsonc")).toBe(before)
    expect(readdirSync(dir).filter((file) => file.includes("slotwise-"))).toEqual([])
  })
})

describe("slotwise init in environments", () => {
  const config = (staging: string) =>
    [
      "{",
      '  "name": "w",',
      '  "main": "src/index.ts",',
      '  "d1_databases": [{ "binding": "OWN", "database_name": "own", "database_id": "id-1" }],',
      '  "env": {',
      `    "staging": ${staging},`,
      '    "production": { "vars": { "MODE": "prod" } }',
      "  }",
      "}",
      "",
    ].join("\n")

  it("gives an environment's own triggers, D1, Durable Objects and migrations what slotwise needs", () => {
    const staging = `{
      "triggers": { "crons": ["0 4 * * *"] },
      "d1_databases": [{ "binding": "OWN", "database_name": "own-staging", "database_id": "id-2" }],
      "durable_objects": { "bindings": [{ "name": "COUNTER", "class_name": "Counter" }] },
      "migrations": [{ "tag": "v1", "new_sqlite_classes": ["Counter"] }]
    }`
    const dir = worker({ "wrangler.jsonc": config(staging), "src/index.ts": "export default {}\n" })
    const done = run(dir)
    expect(done.code, done.stderr).toBe(0)
    const text = read(dir, "wrangler.jsonc")
    // The top level's additions go before the environments, which the config keeps last.
    expect(text.indexOf('"minify": true')).toBeLessThan(text.indexOf('"env": {'))
    expect(text.indexOf('"migrations": [')).toBeLessThan(text.indexOf('"env": {'))
    const after = JSON.parse(text)
    expect(after.env.staging).toMatchObject({
      triggers: { crons: ["0 4 * * *", "* * * * *"] },
      d1_databases: [{ binding: "OWN" }, { binding: "DB", database_name: "own-staging", database_id: "id-2" }],
      durable_objects: { bindings: [{ name: "COUNTER" }, { name: "SCHEDULES", class_name: "ScheduleStream" }] },
      migrations: [{ tag: "v1" }, { tag: "v2", new_sqlite_classes: ["ScheduleStream"] }],
    })
    // production has no D1 list of its own: named, with what to add, until it has DB.
    expect(after.env.production.durable_objects.bindings).toEqual([{ name: "SCHEDULES", class_name: "ScheduleStream" }])
    expect(done.stdout).toContain("env.production in wrangler.jsonc has no d1_databases")
    expect(done.stdout).not.toContain("env.staging in wrangler.jsonc")

    const fixed = read(dir, "wrangler.jsonc").replace(
      '"vars": { "MODE": "prod" }',
      '"vars": { "MODE": "prod" }, "d1_databases": [{ "binding": "DB", "database_name": "prod", "database_id": "id-3" }]',
    )
    writeFileSync(path.join(dir, "wrangler.jsonc"), fixed)
    const again = run(dir)
    expect(again.stdout).toBe("slotwise init: wrangler.jsonc and its Worker have all slotwise needs; nothing changed")
  })

  it("refuses an environment whose D1 list names no database, naming it, and writes nothing", () => {
    const dir = worker({
      "wrangler.jsonc": config('{ "d1_databases": [] }'),
      "src/index.ts": "export default {}\n",
    })
    const before = read(dir, "wrangler.jsonc")
    const refused = run(dir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("env.staging.d1_databases: no database to bind DB to")
    expect(read(dir, "wrangler.jsonc")).toBe(before)
  })

  it("TOML: an environment's own crons and migrations get the heartbeat's and ScheduleStream's", () => {
    const toml = [
      'name = "w"',
      'main = "src/index.ts"',
      "",
      "[env.staging.triggers]",
      'crons = ["0 4 * * *"] # staging report',
      "",
      "[[env.staging.migrations]]",
      'tag = "v1"',
      'new_sqlite_classes = ["Counter"]',
      "",
    ].join("\n")
    const dir = worker({ "wrangler.toml": toml, "src/index.ts": "export default {}\n" })
    expect(run(dir).code).toBe(0)
    const after = read(dir, "wrangler.toml")
    expect(after).toContain('crons = ["0 4 * * *", "* * * * *"] # staging report')
    expect(after).toContain('[[env.staging.migrations]]\ntag = "v2"\nnew_sqlite_classes = ["ScheduleStream"]')
    expect(after).toContain('[[env.staging.durable_objects.bindings]]\nname = "SCHEDULES"')
  })
})

describe("slotwise init: TypeScript settings and secrets", () => {
  it("refuses, with the one-line edit, a tsconfig whose module rules out bundler resolution", () => {
    const dir = template("scheduled")
    const tsconfig = read(dir, "tsconfig.json").replace('"module": "es2022"', '"module": "commonjs"')
    writeFileSync(path.join(dir, "tsconfig.json"), tsconfig)
    const refused = run(dir)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'tsconfig.json: "moduleResolution" is "node", which cannot read slotwise\'s package exports; set "module": "es2022" and "moduleResolution": "bundler"',
    )
  })

  it("never writes the admin token into a file git tracks", () => {
    const dir = template("hono")
    writeFileSync(path.join(dir, ".env"), "MODE=dev\n")
    execFileSync("git", ["init", "-q"], { cwd: dir })
    execFileSync("git", ["add", ".env"], { cwd: dir })
    const done = run(dir)
    expect(read(dir, ".env")).toBe("MODE=dev\n")
    expect(done.stdout).toContain("git tracks .env, so init wrote no admin token into it")
  })
})
