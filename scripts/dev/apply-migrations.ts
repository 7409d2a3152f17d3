/**
 * `node scripts/dev/apply-migrations.ts [persist path]`: npm start's migration step in a process of its
 * own, so that the local runtime's warnings stay in its output (shown only if it fails). Its last
 * line is the JSON list of the migrations it applied.
 */
import { applyLocalD1Migrations } from "./local-d1.ts"

console.log(JSON.stringify(await applyLocalD1Migrations(process.argv[2])))
