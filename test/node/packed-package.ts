import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

const root = path.resolve(import.meta.dirname, "../..")
/** The variable through which this global setup hands the run's folder to every test file. */
const RUN_FOLDER_ENV = "SLOTWISE_TEST_RUN_FOLDER"
/** How long a file waits for another file's pack (npm pack builds dist/ first). */
const PACK_WAIT_MS = 600_000

/** Vitest global setup: a folder of this run's own, removed at its end (the packed tarball lives there). */
export default function setup(): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), "slotwise-test-run-"))
  process.env[RUN_FOLDER_ENV] = folder
  return () => {
    delete process.env[RUN_FOLDER_ENV]
    rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * The package as published: `npm pack`'s tarball (prepack builds dist/), packed once per run. Test files
 * run in parallel and two packs at once would rebuild dist/ under each other, so the first file to
 * create the pack folder packs and the others wait for its tarball.
 */
export async function packedTarball(): Promise<string> {
  const run = process.env[RUN_FOLDER_ENV]
  if (!run)
    throw new Error(`${RUN_FOLDER_ENV} is unset: test/node/packed-package.ts is the node project's global setup`)
  const folder = path.join(run, "pack")
  const tarball = path.join(folder, "slotwise.tgz")
  const failed = path.join(folder, "failed")
  try {
    mkdirSync(folder)
  } catch {
    const deadline = Date.now() + PACK_WAIT_MS
    while (!existsSync(tarball)) {
      if (existsSync(failed)) throw new Error(readFileSync(failed, "utf8"))
      if (Date.now() > deadline) throw new Error(`no tarball in ${folder} within ${PACK_WAIT_MS} ms`)
      await sleep(200)
    }
    return tarball
  }
  try {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", folder], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    })
    renameSync(path.join(folder, packed.trim().split("\n").at(-1) ?? ""), tarball)
    return tarball
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
    const said = `npm pack failed:\n${stdout}${stderr}`
    writeFileSync(failed, said)
    throw new Error(said)
  }
}
