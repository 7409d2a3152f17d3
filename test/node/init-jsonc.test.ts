import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { planConfig } from "../../src/infra/init/config-plan.ts"
import { applyToValue, type ConfigEdit } from "../../src/infra/init/edits.ts"
import { UnsafeEditError } from "../../src/infra/init/errors.ts"
import { editJsonc, readJsonc } from "../../src/infra/init/jsonc.ts"
import { C3_ADDITIONS } from "./c3-additions.ts"

const root = path.resolve(import.meta.dirname, "../..")
const FILE = "wrangler.jsonc"

function initJsonc(text: string) {
  const value = readJsonc(FILE, text)
  const { edits } = planConfig(FILE, value, undefined)
  return { edits, after: editJsonc(FILE, text, edits), expected: edits.reduce(applyToValue, value) }
}

/** The comments of a JSONC text, in order (none of these fixtures has `//` or `/*` inside a string). */
const comments = (text: string) => text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []

describe("slotwise init on a wrangler.jsonc", () => {
  it("adds to create-cloudflare's hello world what slotwise needs, in its tabs, keeping every comment", () => {
    const c3 = readFileSync(path.join(root, "test/adopter/c3/wrangler.jsonc"), "utf8")
    const { after, expected } = initJsonc(c3)
    expect(readJsonc(FILE, after)).toEqual(expected)
    expect(expected).toMatchObject(C3_ADDITIONS)
    expect(comments(after)).toEqual(comments(c3))
    expect(after).toContain('\t"upload_source_maps": true,\n\t"minify": true,\n\t"triggers": {\n\t\t"crons": [')
    expect(planConfig(FILE, readJsonc(FILE, after), undefined).edits).toEqual([])
  })

  it("plans nothing for the guide's adopter, and appends to the Worker's own crons, bindings and migrations", () => {
    const adopter = readFileSync(path.join(root, "test/adopter/wrangler.jsonc"), "utf8")
    expect(planConfig(FILE, readJsonc(FILE, adopter), undefined).edits).toEqual([])
    const own = [
      "{",
      '  "name": "w", // the Worker',
      '  "main": "src/index.ts",',
      '  "triggers": { "crons": ["0 3 * * *"] }, // nightly',
      '  "d1_databases": [{ "binding": "OWN", "database_name": "own", "database_id": "id-1" }],',
      '  "durable_objects": { "bindings": [{ "name": "COUNTER", "class_name": "Counter" }] },',
      '  "migrations": [{ "tag": "v1", "new_classes": ["Counter"] }], // deployed',
      "}",
    ].join("\n")
    const { after, expected } = initJsonc(own)
    expect(readJsonc(FILE, after)).toEqual(expected)
    expect(comments(after)).toEqual(comments(own))
    expect(expected).toMatchObject({
      triggers: { crons: ["0 3 * * *", "* * * * *"] },
      d1_databases: [{ binding: "OWN" }, { binding: "DB", database_name: "own", database_id: "id-1" }],
      migrations: [{ tag: "v1" }, { tag: "v2", new_sqlite_classes: ["ScheduleStream"] }],
    })
  })

  it("names the line of a syntax error", () => {
    expect(() => readJsonc(FILE, '{\n  "name": "w",\n  "main": \n}')).toThrow(/^wrangler\.jsonc:4: ValueExpected/)
  })

  it("refuses, naming the addition, an edit the config cannot take, and changes nothing", () => {
    const edit: ConfigEdit = { op: "append", path: ["name", "x"], value: 1, what: "x under name" }
    expect(() => editJsonc(FILE, '{ "name": "w" }', [edit])).toThrow(UnsafeEditError)
  })
})
