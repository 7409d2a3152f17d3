import { readFileSync } from "node:fs"
import path from "node:path"
import fc from "fast-check"
import { parseTOML } from "toml-eslint-parser"
import { describe, expect, it } from "vitest"
import { planConfig } from "../../src/infra/init/config-plan.ts"
import { applyToValue, type ConfigEdit } from "../../src/infra/init/edits.ts"
import { UnsafeEditError } from "../../src/infra/init/errors.ts"
import { editToml, readToml } from "../../src/infra/init/toml.ts"
import { C3_ADDITIONS } from "./c3-additions.ts"

const root = path.resolve(import.meta.dirname, "../..")
const FILE = "wrangler.toml"

/** init's edits on a wrangler.toml, as `slotwise init` plans them for a Worker whose entry is not slotwise's yet. */
function initToml(text: string) {
  const value = readToml(FILE, text)
  const { edits } = planConfig(FILE, value, undefined)
  const after = editToml(FILE, text, edits)
  return { value, edits, after, expected: edits.reduce(applyToValue, value) }
}

const comments = (text: string) => parseTOML(text).comments.map((comment) => comment.value)

describe("slotwise init on a wrangler.toml", () => {
  it("adds to create-cloudflare's hello world what slotwise needs, keeping every comment and line", () => {
    const c3 = readFileSync(path.join(root, "test/adopter/c3/wrangler.toml"), "utf8")
    const { after, expected } = initToml(c3)
    expect(readToml(FILE, after)).toEqual(expected)
    expect(expected).toMatchObject({ ...C3_ADDITIONS, observability: { enabled: true } })
    // Insertions only: the original's lines are all there, in order, comments included.
    const lines = after.split("\n")
    let at = 0
    for (const line of c3.split("\n")) {
      at = lines.indexOf(line, at)
      expect(at, `kept: ${line}`).toBeGreaterThanOrEqual(0)
    }
    expect(after).toContain("upload_source_maps = true\nminify = true\n\n[observability]")
    expect(comments(after)).toEqual(comments(c3))
  })

  it("plans nothing for a config that has it all: the guide's adopter, and any config after one run", () => {
    const adopter = readFileSync(path.join(root, "test/adopter/wrangler.toml"), "utf8")
    expect(planConfig(FILE, readToml(FILE, adopter), undefined).edits).toEqual([])
    const { after } = initToml(readFileSync(path.join(root, "test/adopter/c3/wrangler.toml"), "utf8"))
    expect(planConfig(FILE, readToml(FILE, after), undefined).edits).toEqual([])
  })

  it("puts the migration after the Worker's last tag and the sub-tables that belong to it", () => {
    const text = [
      'name = "w"',
      'main = "src/index.ts" # the entry',
      "",
      "[[migrations]]",
      'tag = "v1"',
      'new_classes = ["Counter"]',
      "",
      "[[migrations]]",
      'tag = "v2"',
      "",
      "[[migrations.renamed_classes]] # a sub-table of v2",
      'from = "Counter"',
      'to = "Tally"',
      "",
      "# the staging Worker",
      "[env.staging]",
      'name = "w-staging"',
      "",
    ].join("\n")
    const { after, expected } = initToml(text)
    expect(readToml(FILE, after)).toEqual(expected)
    expect(expected.migrations).toEqual([
      { tag: "v1", new_classes: ["Counter"] },
      { tag: "v2", renamed_classes: [{ from: "Counter", to: "Tally" }] },
      { tag: "v3", new_sqlite_classes: ["ScheduleStream"] },
    ])
    expect(after).toContain('to = "Tally"\n\n[[migrations]]\ntag = "v3"\nnew_sqlite_classes = ["ScheduleStream"]\n')
    expect(after).toContain('main = "src/index.ts" # the entry\nminify = true\n')
    expect(comments(after)).toEqual(comments(text))
  })

  it("appends to the Worker's own arrays in their own layout: inline, dotted, multi-line, trailing comma", () => {
    const cases: Array<[string, string]> = [
      ['triggers = { crons = ["0 3 * * *"] }\n', 'triggers = { crons = ["0 3 * * *", "* * * * *"] }'],
      ['triggers.crons = [ "0 3 * * *", ]\n', 'triggers.crons = [ "0 3 * * *", "* * * * *", ]'],
      ['[triggers]\ncrons = [\n  "0 3 * * *", # nightly\n]\n', '  "0 3 * * *", # nightly\n  "* * * * *",\n]'],
      ['[triggers]\ncrons = [\n    "0 3 * * *" # nightly\n]\n', '    "0 3 * * *", # nightly\n    "* * * * *"\n]'],
      ["[triggers]\ncrons = []\n", 'crons = ["* * * * *"]'],
      ["[triggers] # no crons yet\n", '[triggers] # no crons yet\ncrons = ["* * * * *"]'],
      ["durable_objects = { bindings = [] }\n", 'durable_objects = { bindings = [{ name = "SCHEDULES", class_name'],
      [
        '[durable_objects]\nbindings = [\n  { name = "COUNTER", class_name = "Counter" },\n]\n',
        '  { name = "COUNTER", class_name = "Counter" },\n  { name = "SCHEDULES", class_name = "ScheduleStream" },\n]',
      ],
      [
        'd1_databases = [{ binding = "OWN", database_name = "own", database_id = "id-1" }]\n',
        '{ binding = "DB", database_name = "own", database_id = "id-1" }]',
      ],
    ]
    for (const [tail, expectedText] of cases) {
      const text = `name = "w"\nmain = "src/index.ts"\n${tail}`
      const { after, expected } = initToml(text)
      expect(readToml(FILE, after), tail).toEqual(expected)
      expect(after, tail).toContain(expectedText)
      expect(comments(after), tail).toEqual(comments(text))
    }
  })

  it("keeps the file's CRLF line ends", () => {
    const text = 'name = "w"\r\nmain = "src/index.ts"\r\n\r\n[triggers]\r\ncrons = [\r\n  "0 3 * * *",\r\n]\r\n'
    const { after, expected } = initToml(text)
    expect(readToml(FILE, after)).toEqual(expected)
    expect(after.replaceAll("\r\n", "")).not.toContain("\n")
  })

  it("refuses, naming the addition, an edit whose result would not be the config plus it, and changes nothing", () => {
    const text = 'name = "w"\nmain = "src/index.ts"\n'
    const edit: ConfigEdit = { op: "append", path: ["name"], value: "x", what: "an element of name" }
    expect(() => editToml(FILE, text, [edit])).toThrow(UnsafeEditError)
    expect(() => editToml(FILE, text, [edit])).toThrow(/wrangler\.toml: init cannot add an element of name safely/)
  })

  it("on any mix of the Worker's own layouts: the result is the config plus the additions, comments kept, idempotent", () => {
    const crons = fc.constantFrom<string[]>([], ["0 3 * * *"], ["0 3 * * *", "*/5 * * * *"], ["* * * * *"])
    const list = (items: string[], multiline: boolean, trailingComma: boolean) => {
      if (!multiline) return `[${items.join(", ")}${trailingComma && items.length > 0 ? "," : ""}]`
      const rows = items.map((item, i) => `  ${item}${i < items.length - 1 || trailingComma ? "," : ""} # row ${i}`)
      return ["[", ...rows, "]"].join("\n")
    }
    const quoted = (items: string[]) => items.map((item) => JSON.stringify(item))
    const shape = fc.record({
      crlf: fc.boolean(),
      minify: fc.constantFrom<string | undefined>(undefined, "minify = true", "minify = false"),
      triggers: fc.constantFrom("none", "table", "inline", "dotted", "empty-table"),
      crons,
      multiline: fc.boolean(),
      trailingComma: fc.boolean(),
      d1: fc.constantFrom("none", "tables", "inline", "has-db"),
      durable: fc.constantFrom("none", "tables", "table-array", "inline-empty", "has-schedules"),
      migrations: fc.integer({ min: 0, max: 3 }),
      renamed: fc.boolean(),
      env: fc.boolean(),
      hints: fc.boolean(),
      finalNewline: fc.boolean(),
      order: fc.shuffledSubarray(["triggers", "d1", "durable", "migrations", "env"], { minLength: 5 }),
    })
    fc.assert(
      fc.property(shape, (s) => {
        const top = ["#:schema node_modules/wrangler/config-schema.json", 'name = "w"', 'main = "src/index.ts" # entry']
        if (s.minify) top.push(s.minify)
        const cronList = list(quoted(s.crons), s.multiline, s.trailingComma)
        if (s.triggers === "inline") top.push(`triggers = { crons = ${list(quoted(s.crons), false, false)} }`)
        if (s.triggers === "dotted") top.push(`triggers.crons = ${cronList}`)
        if (s.d1 === "inline") top.push('d1_databases = [{ binding = "OWN", database_name = "own" }]')
        if (s.durable === "inline-empty") top.push("durable_objects = { bindings = [] }")
        const blocks: Record<string, string[]> = {
          triggers:
            s.triggers === "table"
              ? ["# the Worker's own", "[triggers]", `crons = ${cronList}`]
              : s.triggers === "empty-table"
                ? ["[triggers]"]
                : [],
          d1:
            s.d1 === "tables" || s.d1 === "has-db"
              ? ["[[d1_databases]]", `binding = "${s.d1 === "has-db" ? "DB" : "OWN"}"`, 'database_name = "own"']
              : [],
          durable:
            s.durable === "tables" || s.durable === "has-schedules"
              ? s.durable === "tables"
                ? ["[[durable_objects.bindings]]", 'name = "COUNTER"', 'class_name = "Counter"']
                : ["[[durable_objects.bindings]]", 'name = "SCHEDULES"', 'class_name = "ScheduleStream"']
              : s.durable === "table-array"
                ? [
                    "[durable_objects]",
                    `bindings = ${list(['{ name = "COUNTER", class_name = "Counter" }'], s.multiline, s.trailingComma)}`,
                  ]
                : [],
          migrations: Array.from({ length: s.migrations }, (_, i) => [
            "",
            `[[migrations]] # tag ${i + 1}`,
            `tag = "v${i + 1}"`,
            'new_classes = ["Counter"]',
            ...(s.renamed && i === s.migrations - 1
              ? ["[[migrations.renamed_classes]]", 'from = "A"', 'to = "B"']
              : []),
          ]).flat(),
          env: s.env ? ["[env.staging]", 'name = "w-staging"', "[env.staging.vars]", 'STAGE = "1"'] : [],
        }
        const hints = s.hints ? ["# Smart Placement", "# [placement]", '# mode = "smart"'] : []
        const body = [top.join("\n"), ...s.order.map((key) => (blocks[key] ?? []).join("\n")), hints.join("\n")]
        const lf = body.filter((block) => block !== "").join("\n\n") + (s.finalNewline ? "\n" : "")
        const text = s.crlf ? lf.replaceAll("\n", "\r\n") : lf
        const { after, expected } = initToml(text)
        expect(readToml(FILE, after)).toEqual(expected)
        expect(comments(after)).toEqual(comments(text))
        expect(planConfig(FILE, readToml(FILE, after), undefined).edits).toEqual([])
        if (s.crlf) expect(after.replaceAll("\r\n", "")).not.toContain("\n")
      }),
      { numRuns: 300 },
    )
  })
})
