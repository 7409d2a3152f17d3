import { execFile } from "node:child_process"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import SwaggerParser from "@apidevtools/swagger-parser"
import { Ajv2020 } from "ajv/dist/2020.js"
import openapiTS, { astToString } from "openapi-typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ROOT } from "../../scripts/dev/wrangler.ts"
import { ADMIN_ROUTES } from "../../src/infra/admin/routes.ts"
import { CLIENT_SOURCE } from "./openapi-client.ts"
import { type LocalWorker, startWorker } from "./worker.ts"

const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc")
const COMPILE_TIMEOUT_MS = 120_000
const DOCUMENT_ID = "https://slotwise.test/openapi.json"

interface Answer {
  operation: string
  method: string
  path: string
  status: number
  contentType: string | null
  body: unknown
}

type Doc = {
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >
  components: object
}

/**
 * An adopter's view of the admin API: the document as served, validated, turned into types, a client
 * compiled on them and run against the real Worker; every answer checked against the document.
 */
describe("the admin's OpenAPI document, as a generated client uses it", () => {
  let worker: LocalWorker
  let dir: string
  let doc: Doc

  beforeAll(async () => {
    worker = await startWorker()
    // Inside the repository (results/ is ignored), so the client resolves openapi-fetch from its node_modules.
    await mkdir(path.join(ROOT, "results"), { recursive: true })
    dir = await mkdtemp(path.join(ROOT, "results", "openapi-client-"))
    const res = await fetch(`${worker.origin}/admin/openapi.json`, {
      headers: { authorization: `Bearer ${worker.token}` },
    })
    expect(res.status).toBe(200)
    doc = (await res.json()) as Doc
  })
  afterAll(async () => {
    await worker?.stop()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it("is a valid OpenAPI 3.1 document (swagger-parser)", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined()
  })

  it("types a client that compiles strict, calls every operation, and every answer is what the document declares", async () => {
    await writeFile(path.join(dir, "schema.ts"), astToString(await openapiTS(structuredClone(doc) as never)))
    await writeFile(path.join(dir, "client.ts"), CLIENT_SOURCE)
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        allowImportingTsExtensions: true,
        noUncheckedIndexedAccess: true,
        lib: ["es2022", "dom"],
        types: [],
      },
      files: ["client.ts"],
    }
    await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig))
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" }))
    try {
      await promisify(execFile)(process.execPath, [TSC, "-p", dir], { cwd: dir, timeout: COMPILE_TIMEOUT_MS })
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
      throw new Error(`the generated client does not compile:\n${stdout}${stderr}`)
    }

    const { callEveryOperation } = (await import(pathToFileURL(path.join(dir, "client.ts")).href)) as {
      callEveryOperation: (baseUrl: string, token: string) => Promise<Answer[]>
    }
    const answers = await callEveryOperation(`${worker.origin}/admin`, worker.token)

    const ajv = new Ajv2020({ strict: false, allErrors: true })
    ajv.addSchema({ $id: DOCUMENT_ID, components: doc.components })
    for (const answer of answers) {
      const where = `${answer.method.toUpperCase()} ${answer.path} → ${answer.status} ${JSON.stringify(answer.body)}`
      const operation = doc.paths[answer.path]?.[answer.method]
      expect(operation?.operationId, where).toBe(answer.operation)
      const declared = operation?.responses[answer.status]
      expect(declared, `${where}: status not declared`).toBeDefined()
      const media = answer.status === 200 ? "application/json" : "application/problem+json"
      expect(answer.contentType?.split(";")[0], where).toBe(media)
      const schema = declared?.content?.[media]?.schema as { $ref?: string } | undefined
      expect(schema?.$ref, `${where}: no ${media} schema`).toMatch(/^#\/components\/schemas\//)
      const validate = ajv.getSchema(`${DOCUMENT_ID}${schema?.$ref}`)
      expect(validate, `${where}: ${schema?.$ref} not found`).toBeDefined()
      const valid = validate?.(answer.body)
      expect(valid, `${where}: ${ajv.errorsText(validate?.errors)}`).toBe(true)
    }

    // Every operation was called, with its success and the refusals an adopter meets first.
    expect(new Set(answers.map((answer) => answer.operation))).toEqual(new Set(Object.keys(ADMIN_ROUTES)))
    const statuses = new Set(answers.map((answer) => answer.status))
    for (const status of [200, 400, 401, 404]) expect(statuses, `a ${status} answer`).toContain(status)
  })
})
