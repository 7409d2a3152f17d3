import { execFile } from "node:child_process"
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { promisify } from "node:util"
import SwaggerParser from "@apidevtools/swagger-parser"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import openapiTS, { astToString } from "openapi-typescript"
import { describe, expect, it } from "vitest"
import { servedDocument } from "../../src/infra/admin/openapi.ts"

const root = path.resolve(import.meta.dirname, "../..")
/** The document as a Worker serves it under /admin. */
const served = async () => structuredClone(await servedDocument("/admin", true)) as Record<string, unknown>

describe("the admin's OpenAPI document", () => {
  it("says the package's version", async () => {
    const { version } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"))
    expect(((await served()).info as { version: string }).version).toBe(version)
  })

  it("is valid OpenAPI 3.1 (swagger-parser)", async () => {
    await expect(SwaggerParser.validate((await served()) as never)).resolves.toBeDefined()
  })

  it("passes redocly's recommended rules, every operation's tag defined and every required property defined", async () => {
    const config = await createConfig({
      extends: ["recommended"],
      rules: {
        "operation-tag-defined": "error",
        "no-required-schema-properties-undefined": "error",
        // package.json names no license, so the document has none to state.
        "info-license": "off",
      },
    })
    const problems = await lintFromString({
      source: JSON.stringify(await served()),
      absoluteRef: "/openapi.json",
      config,
    })
    expect(problems.map(({ ruleId, message, location }) => `${ruleId}: ${message} at ${location[0]?.pointer}`)).toEqual(
      [],
    )
  })
})

type Schema = Record<string, unknown> | boolean

/** Each schema that says nothing of its type: neither `type`, a reference, a combination, a constant nor an enum. */
function untyped(schema: Schema, at: string): string[] {
  if (typeof schema === "boolean") return []
  const typed = ["type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum"].some((key) => key in schema)
  const own = typed ? [] : [at]
  const nested = [
    ...Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, s]) =>
      untyped(s, `${at}/properties/${k}`),
    ),
    ...(["anyOf", "oneOf", "allOf"] as const).flatMap((key) =>
      ((schema[key] ?? []) as Schema[]).map((s, i) => untyped(s, `${at}/${key}/${i}`)),
    ),
    // additionalProperties is not checked: an open map's values (a problem's extensions, an event's data) are any JSON.
    typeof schema.items === "object" ? untyped(schema.items as Schema, `${at}/items`) : [],
  ]
  return [...own, ...nested.flat()]
}

describe("the admin's OpenAPI document types every field", () => {
  it("has no schema without a type: every component, parameter and property says what it holds", async () => {
    const doc = (await served()) as {
      components: { schemas: Record<string, Schema> }
      paths: Record<string, Record<string, { parameters?: { name: string; schema: Schema }[] }>>
    }
    const found = [
      ...Object.entries(doc.components.schemas).flatMap(([id, s]) => untyped(s, `#/components/schemas/${id}`)),
      ...Object.entries(doc.paths).flatMap(([route, operations]) =>
        Object.entries(operations).flatMap(([method, op]) =>
          (op.parameters ?? []).flatMap((p) => untyped(p.schema, `${method} ${route} ${p.name}`)),
        ),
      ),
    ]
    expect(found).toEqual([])
  })

  it("finds an untyped property when one is planted (the check above can fail)", () => {
    const planted = { type: "object", properties: { reason: { description: "a string" }, ok: { type: "string" } } }
    expect(untyped(planted, "#")).toEqual(["#/properties/reason"])
  })

  it("compiles a strict client on it where a cancel's reason must be a string (openapi-typescript, tsc)", async () => {
    const schema = astToString(await openapiTS((await served()) as never))
    // No named field is left unknown (an index signature's unknown is any JSON's object, or a header's).
    expect(schema.match(/^\s*[\w"]+\??: unknown\b.*$/gm) ?? []).toEqual([])
    await mkdir(path.join(root, "results"), { recursive: true })
    const dir = await mkdtemp(path.join(root, "results", "openapi-strict-"))
    try {
      await writeFile(path.join(dir, "schema.ts"), schema)
      await writeFile(
        path.join(dir, "client.ts"),
        [
          'import type { paths } from "./schema.ts"',
          'type Cancel = paths["/streams/{stream}/schedules/{id}/cancel"]["post"]',
          'type Body = NonNullable<Cancel["requestBody"]>["content"]["application/json"]',
          'type Put = paths["/streams/{stream}/schedules/{id}"]["put"]["requestBody"]["content"]["application/json"]',
          'export const fine: Body = { reason: "paused by ops" }',
          "// @ts-expect-error a reason is a string",
          "export const number: Body = { reason: 42 }",
          'export const put: Put = { consumer: "c", at: 1, maxAttempts: null, payload: { a: [1] } }',
          "// @ts-expect-error maxAttempts is an integer or null",
          'export const text: Put = { consumer: "c", at: 1, maxAttempts: "3" }',
        ].join("\n"),
      )
      const tsconfig = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          allowImportingTsExtensions: true,
          types: [],
        },
        files: ["client.ts"],
      }
      await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig))
      await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" }))
      const tsc = path.join(root, "node_modules/typescript/bin/tsc")
      const compiled = await promisify(execFile)(process.execPath, [tsc, "-p", dir], { cwd: dir }).then(
        () => "",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      )
      expect(compiled).toBe("")
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
