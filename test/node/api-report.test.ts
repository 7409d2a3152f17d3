import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from "@microsoft/api-extractor"
import { afterEach, describe, expect, it } from "vitest"
import { exportedDeclarations, exportedElsewhere, MESSAGES } from "../../scripts/check/api-report.ts"

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A package of declaration files, as `npm run check` hands api-extractor the built ones. */
function fixture(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), "slotwise-api-report-"))
  folders.push(folder)
  writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: "fixture", version: "0.0.0" }))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text)
  return folder
}

/** Runs api-extractor on `entry` with the check's message settings; answers whether it passed and what it reported. */
function extract(folder: string, entry: string, callback: (message: ExtractorMessage) => void = () => {}) {
  const main = path.join(folder, entry)
  const reported: string[] = []
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: folder,
      mainEntryPointFilePath: main,
      compiler: { overrideTsconfig: { compilerOptions: { strict: true, skipLibCheck: true }, files: [main] } },
      // ae-undocumented is raised only while a report is written.
      apiReport: {
        enabled: true,
        reportFolder: folder,
        reportTempFolder: path.join(folder, "temp"),
        reportFileName: "fixture.api.md",
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: MESSAGES,
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: path.join(folder, "package.json"),
  })
  const result = Extractor.invoke(config, {
    localBuild: true,
    messageCallback: (message) => {
      callback(message)
      if (message.logLevel === ExtractorLogLevel.Error) reported.push(message.messageId)
      message.handled = true
    },
  })
  return { succeeded: result.succeeded, reported: reported.sort() }
}

describe("npm run check's API reports (scripts/check/api-report.ts)", () => {
  it("fail on an export without a doc comment and on a type the surface names but no entry exports", () => {
    const folder = fixture({
      "index.d.ts": [
        // A declaration file exports every top-level declaration unless it says `export {}`.
        "export {}",
        "/** A documented value. */",
        "export declare const ok: number",
        "export declare const bare: number",
        "interface Hidden {",
        "  /** Its one member. */",
        "  a: number",
        "}",
        "/** Leaks Hidden. */",
        "export declare function leak(): Hidden",
      ].join("\n"),
    })
    expect(extract(folder, "index.d.ts")).toEqual({
      succeeded: false,
      reported: ["ae-forgotten-export", "ae-undocumented"],
    })
  })

  it("pass a surface where every export is documented and every type it names is exported", () => {
    const folder = fixture({
      "index.d.ts": [
        "/** A documented value. */",
        "export declare const ok: number",
        "/** What leak answers. */",
        "export interface Shown {",
        "  /** Its one member. */",
        "  a: number",
        "}",
        "/** Answers Shown. */",
        "export declare function leak(): Shown",
      ].join("\n"),
    })
    expect(extract(folder, "index.d.ts")).toEqual({ succeeded: true, reported: [] })
  })

  it("take a type another entry of the package exports as exported (slotwise/admin's Job is slotwise/portable's)", () => {
    const files = {
      "shared.d.ts":
        "/** A shape both entries name. */\nexport interface Shared {\n  /** Its one member. */\n  n: number\n}\n",
      "portable.d.ts": 'export type { Shared } from "./shared.js"\n',
      "admin.d.ts":
        'import type { Shared } from "./shared.js"\n/** Answers the shared shape. */\nexport declare function make(): Shared\n',
    }
    const folder = fixture(files)
    const entries = (...names: string[]) => exportedDeclarations(names.map((name) => path.join(folder, name)))
    const filtered = (known: ReturnType<typeof entries>) => (message: ExtractorMessage) => {
      if (message.messageId === "ae-forgotten-export" && exportedElsewhere(message, known)) {
        message.logLevel = ExtractorLogLevel.None
      }
    }
    expect(extract(folder, "admin.d.ts", filtered(entries("portable.d.ts", "admin.d.ts")))).toEqual({
      succeeded: true,
      reported: [],
    })
    // Alone, the entry leaks it.
    expect(extract(folder, "admin.d.ts", filtered(entries("admin.d.ts")))).toEqual({
      succeeded: false,
      reported: ["ae-forgotten-export"],
    })
  })
})
