import path from "node:path"
import { GENERATED as DASHBOARD, writeDashboard } from "../dashboard/bundle.ts"
import { GENERATED as OPENAPI, writeDocument } from "../openapi/document.ts"

/**
 * Writes the engine's generated modules, which git does not hold: the dashboard's browser bundle and
 * the admin's OpenAPI document. Answers each module's path (relative to `cwd`) and whether it changed.
 */
export async function writeGenerated(): Promise<Array<{ file: string; changed: boolean }>> {
  const [dashboard, openapi] = await Promise.all([writeDashboard(), writeDocument()])
  return [
    { file: path.relative(process.cwd(), DASHBOARD), changed: dashboard },
    { file: path.relative(process.cwd(), OPENAPI), changed: openapi },
  ]
}
