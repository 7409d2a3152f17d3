/**
 * `npm run build:openapi`: writes the admin's OpenAPI document into the module the Worker serves
 * (src/infra/admin/openapi.generated.js, ignored by git; scripts/generate/ writes it with the rest).
 */
import path from "node:path"
import { GENERATED, writeDocument } from "./document.ts"

const where = path.relative(process.cwd(), GENERATED)
console.log(`${where} ${(await writeDocument()) ? "written" : "unchanged"}`)
