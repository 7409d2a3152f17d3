/**
 * `npm run build:dashboard`: bundles the dashboard's browser code into the module the page imports.
 * `--check` (in `npm run check`) only fails when the committed module is not what the code bundles to.
 */
import path from "node:path"
import { dashboardIsCurrent, GENERATED, writeDashboard } from "./bundle.ts"

const where = path.relative(process.cwd(), GENERATED)
if (process.argv.includes("--check")) {
  if (await dashboardIsCurrent()) console.log(`${where} is current`)
  else {
    console.error(`${where} is not what the dashboard's browser code bundles to: run npm run build:dashboard`)
    process.exitCode = 1
  }
} else {
  console.log(`${where} ${(await writeDashboard()) ? "written" : "unchanged"}`)
}
