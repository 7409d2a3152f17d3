/**
 * `node scripts/generate/main.ts`: writes the generated modules (the dashboard's bundle, the OpenAPI
 * document). Run by build, typecheck, build:container and wrangler's `[build]` command; npm start and
 * the test run's global setup call the same function.
 */
import { writeGenerated } from "./index.ts"

for (const { file, changed } of await writeGenerated()) console.log(`${file} ${changed ? "written" : "unchanged"}`)
