/**
 * `npm run build:openapi`: writes the admin's OpenAPI document into the module the Worker serves.
 * `--check` (in `npm run check`) only fails when the committed module is not what the schemas build to.
 */
import path from "node:path"
import { documentIsCurrent, GENERATED, writeDocument } from "./document.ts"

const where = path.relative(process.cwd(), GENERATED)
if (process.argv.includes("--check")) {
  if (await documentIsCurrent()) console.log(`${where} is current`)
  else {
    console.error(`${where} is not what src/infra/admin/openapi-document.ts builds: run npm run build:openapi`)
    process.exitCode = 1
  }
} else {
  console.log(`${where} ${(await writeDocument()) ? "written" : "unchanged"}`)
}
