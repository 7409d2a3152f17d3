/**
 * The public API reports: what each of the package's entries exports, as `@microsoft/api-extractor`
 * reads it from the built declarations, committed in api/. `npm run check` runs this with `--check`
 * and fails when an entry's surface differs from its report; `npm run api:update` rewrites them.
 * Both fail on an exported declaration or member without a doc comment (`ae-undocumented`) and on a
 * type the surface names that no entry of the package exports (`ae-forgotten-export`).
 */
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
  type IConfigFile,
} from "@microsoft/api-extractor"
import ts from "typescript"

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

/** How api-extractor's messages are reported: the two that keep the surface readable are errors. */
export const MESSAGES: IConfigFile["messages"] = {
  // The bundled TypeScript may be older than the project's; the report does not depend on it.
  compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
  extractorMessageReporting: {
    default: { logLevel: ExtractorLogLevel.Warning },
    // Release tags (@public, @beta) are not how slotwise marks its surface: the entries are.
    "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
    // Every exported symbol and member says what it is for, and every type the surface names is exported: either is an error.
    "ae-undocumented": { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
    "ae-forgotten-export": { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
  },
  tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
}

/**
 * The names each of `declarations` (built entry files) exports, as the declarations they resolve to: a
 * type one entry names and another exports is reachable by the package's users, so not forgotten.
 */
export function exportedDeclarations(declarations: readonly string[]): {
  program: ts.Program
  exported: Set<ts.Symbol>
} {
  const program = ts.createProgram([...declarations], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ["@cloudflare/workers-types", "node"],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const resolve = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const exported = new Set<ts.Symbol>()
  for (const file of declarations) {
    const source = program.getSourceFile(file)
    const module = source && checker.getSymbolAtLocation(source)
    if (module) for (const symbol of checker.getExportsOfModule(module)) exported.add(resolve(symbol))
  }
  return { program, exported }
}

/** Whether the forgotten `message` names, in its file, a declaration another entry exports. */
export function exportedElsewhere(
  message: ExtractorMessage,
  entries: ReturnType<typeof exportedDeclarations>,
): boolean {
  const name = /The symbol "([^"]+)"/.exec(message.text)?.[1]
  const source = message.sourceFilePath && entries.program.getSourceFile(message.sourceFilePath)
  if (!name || !source) return false
  const checker = entries.program.getTypeChecker()
  const local = checker
    .getSymbolsInScope(source, ts.SymbolFlags.Type | ts.SymbolFlags.Value | ts.SymbolFlags.Alias)
    .find((symbol) => symbol.name === name)
  if (!local) return false
  return entries.exported.has(local.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(local) : local)
}

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
  const entries = exportedDeclarations(ENTRIES.map((entry) => path.join(declarations, entry.declaration)))
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
          messages: MESSAGES,
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
          // api-extractor reads one entry at a time: slotwise/admin's Job is slotwise/portable's.
          if (message.messageId === "ae-forgotten-export" && exportedElsewhere(message, entries)) {
            message.logLevel = ExtractorLogLevel.None
          }
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
