/**
 * `npm run build:dashboard`: bundles the dashboard's browser code into the module the page imports
 * (src/infra/admin/dashboard-script.generated.js, ignored by git). Run by build, typecheck, npm start,
 * the test run's global setup and wrangler's `[build]` command.
 */
import path from "node:path"
import { GENERATED, writeDashboard } from "./bundle.ts"

const where = path.relative(process.cwd(), GENERATED)
console.log(`${where} ${(await writeDashboard()) ? "written" : "unchanged"}`)
