import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"

/** Where installed projects are kept between runs: the OS temp folder, outside this repository's node_modules. */
const CACHE = path.join(tmpdir(), "slotwise-test-projects")

/**
 * A folder holding `files` (package.json and the like) after `install` ran in it (`sh -c`), installed
 * once and kept under the OS temp folder by the hash of both, so later runs reuse it. Outside this
 * repository, it resolves what it installed, not the repository's node_modules. Throws with the
 * install's output if it fails.
 *
 * @example
 * ```ts
 * const dir = cachedProject("otel-sdk", { "package.json": JSON.stringify({ dependencies: { … } }) })
 * ```
 */
export function cachedProject(
  name: string,
  files: Record<string, string>,
  install = "npm install --prefer-offline --no-audit --no-fund --loglevel=error",
): string {
  const hash = createHash("sha256")
    .update(JSON.stringify([files, install]))
    .digest("hex")
    .slice(0, 16)
  const dir = path.join(CACHE, `${name}-${hash}`)
  if (existsSync(dir)) return dir
  mkdirSync(CACHE, { recursive: true })
  // Installed beside its final place and renamed into it: a run stopped halfway leaves no half-installed folder.
  const staging = mkdtempSync(path.join(CACHE, `${name}-staging-`))
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(staging, file), text)
  try {
    execFileSync("sh", ["-c", install], { cwd: staging, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
    rmSync(staging, { recursive: true, force: true })
    throw new Error(`${install} in ${staging} failed:\n${stdout}${stderr}`)
  }
  try {
    renameSync(staging, dir)
  } catch (error) {
    // Another run installed the same project meanwhile: use its folder.
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(dir)) throw error
  }
  return dir
}
