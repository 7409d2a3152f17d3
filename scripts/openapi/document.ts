import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** The generated module the Worker serves; git does not hold it (scripts/generate/ writes it). */
export const GENERATED = path.join(ROOT, "src/infra/admin/openapi.generated.js")

const HEADER =
  "// Generated from scripts/openapi/openapi-document.ts by scripts/openapi/document.ts (npm run build:openapi): do not edit."

const SOURCE = fileURLToPath(new URL("./openapi-document.ts", import.meta.url))

/** The document openapi-document.ts builds for the package's version, bundled by esbuild first (the engine's modules it imports use TypeScript that Node cannot strip). */
export async function buildDocument(): Promise<Record<string, unknown>> {
  const { version } = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as { version: string }
  const dir = await mkdtemp(path.join(tmpdir(), "slotwise-openapi-"))
  try {
    const outfile = path.join(dir, "document.mjs")
    await build({ entryPoints: [SOURCE], bundle: true, format: "esm", platform: "node", outfile, logLevel: "silent" })
    const { openapiDocument } = (await import(pathToFileURL(outfile).href)) as {
      openapiDocument: (version: string) => Record<string, unknown>
    }
    return openapiDocument(version)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The document as the text of the generated module. */
export async function documentModule(): Promise<string> {
  const doc = JSON.stringify(await buildDocument(), null, 1)
  return `${HEADER}\n/** The admin's OpenAPI document without its server, as a Worker answers (JSON Schemas from answers.ts and inputs.ts). */\nexport const DOCUMENT = ${doc}\n`
}

/** Writes the generated module; answers whether it changed. */
export async function writeDocument(): Promise<boolean> {
  const text = await documentModule()
  if ((await readFile(GENERATED, "utf8").catch(() => "")) === text) return false
  await writeFile(GENERATED, text)
  return true
}
