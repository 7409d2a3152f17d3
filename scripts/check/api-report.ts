/**
 * The public API reports: what each of the package's entries exports, as `@microsoft/api-extractor`
 * reads it from the built declarations, committed in api/. `npm run check` runs this with `--check`
 * and fails when an entry's surface differs from its report; `npm run api:update` rewrites them.
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const REPORTS = path.join(ROOT, "api")

/** package.json's "exports": each entry, by the name it is imported as, and its built declaration. */
export const ENTRIES = [
  { name: "slotwise", declaration: "index.d.ts" },
  { name: "slotwise/portable", declaration: "portable.d.ts" },
  { name: "slotwise/admin", declaration: "admin/index.d.ts" },
  { name: "slotwise/node", declaration: "node/index.d.ts" },
] as const

const reportName = (entry: string) => `${entry.replace("/", "-")}.api.md`

function buildDeclarations(): string {
  // Inside the project, so the reports name the declarations by a path that does not change from run to run.
  const out = path.join(ROOT, "dist-api")
  rmSync(out, { recursive: true, force: true })
  const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc")
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly", "--outDir", out], {
    cwd: ROOT,
    stdio: "inherit",
  })
  return out
}

/** Writes (update) or compares (check) each entry's report; true when every report matched or was written. */
export function apiReports(mode: "check" | "update"): boolean {
  const declarations = buildDeclarations()
  let ok = true
  try {
    for (const entry of ENTRIES) {
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: ROOT,
          mainEntryPointFilePath: path.join(declarations, entry.declaration),
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: "ES2023",
                module: "ESNext",
                moduleResolution: "Bundler",
                lib: ["ES2023"],
                types: ["@cloudflare/workers-types", "node"],
                strict: true,
                skipLibCheck: true,
              },
              files: [path.join(declarations, entry.declaration)],
            },
          },
          apiReport: {
            enabled: true,
            reportFolder: REPORTS,
            reportTempFolder: path.join(declarations, "reports"),
            reportFileName: reportName(entry.name),
          },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            // The bundled TypeScript may be older than the project's; the report does not depend on it.
            compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
            extractorMessageReporting: {
              default: { logLevel: ExtractorLogLevel.Warning },
              // Release tags (@public, @beta) are not how slotwise marks its surface: the entries are.
              "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
              "ae-undocumented": { logLevel: ExtractorLogLevel.None },
              // A type the surface uses but does not export is noted in the report, for review.
              "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
            },
            tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          },
        },
        configObjectFullPath: path.join(ROOT, "api", "api-extractor.json"),
        packageJsonFullPath: path.join(ROOT, "package.json"),
      })
      const result = Extractor.invoke(config, {
        localBuild: mode === "update",
        showVerboseMessages: false,
        messageCallback: (message) => {
          // The bundled compiler's version notice is not about the surface.
          if (message.messageId === "console-compiler-version-notice") message.logLevel = ExtractorLogLevel.None
        },
      })
      if (result.apiReportChanged && mode === "check") {
        console.error(
          `${entry.name}: its public API differs from api/${reportName(entry.name)}; run npm run api:update and commit the report`,
        )
        ok = false
      } else if (!result.succeeded) {
        console.error(`${entry.name}: api-extractor failed (${result.errorCount} errors)`)
        ok = false
      }
    }
  } finally {
    rmSync(declarations, { recursive: true, force: true })
  }
  return ok
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv.includes("--check") ? "check" : "update"
  if (!apiReports(mode)) process.exit(1)
}
