import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import path from "node:path"

/** The file operations an atomic write uses; tests pass one that fails where they want it to. */
export interface WriteFs {
  writeFileSync: (file: string, text: string) => void
  renameSync: (from: string, to: string) => void
  rmSync: (file: string, options: { force: boolean }) => void
  mkdirSync: (dir: string, options: { recursive: true }) => unknown
}

/**
 * Writes `text` to `file` through a temporary file beside it, renamed over the original: a failed write (disk full,
 * an I/O error) leaves the old file whole, never a cut-off one, and removes the temporary file.
 */
export function writeAtomic(file: string, text: string, io: WriteFs = fs): void {
  io.mkdirSync(path.dirname(file), { recursive: true })
  // Beside the file, so the rename stays on one file system (rename is atomic only there).
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.slotwise-${randomBytes(4).toString("hex")}`)
  try {
    io.writeFileSync(temporary, text)
    io.renameSync(temporary, file)
  } catch (error) {
    io.rmSync(temporary, { force: true })
    throw error
  }
}
