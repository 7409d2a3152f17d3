import { readFile } from "node:fs/promises"
import path from "node:path"
import SwaggerParser from "@apidevtools/swagger-parser"
import { createConfig, lintFromString } from "@redocly/openapi-core"
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
