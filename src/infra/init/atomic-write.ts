import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import path from "node:path"

/** The file operations an atomic write uses; tests pass one that fails where they want it to. */
export interface WriteFs {
  writeFileSync: (file: string, text: string, options?: { mode?: number }) => void
  renameSync: (from: string, to: string) => void
  rmSync: (file: string, options: { force: boolean }) => void
  mkdirSync: (dir: string, options: { recursive: true }) => unknown
  chmodSync?: (file: string, mode: number) => void
}

/** The file a write to `file` must replace: a symlink's final target (the link stays), else the file itself. */
function realFile(file: string): { real: string; mode: number | undefined } {
  try {
    const real = fs.realpathSync(file)
    return { real, mode: fs.statSync(real).mode & 0o7777 }
  } catch {
    // Not there yet (or a dangling link, whose target is then created): the usual mode.
    let real = file
    try {
      if (fs.lstatSync(file).isSymbolicLink()) real = path.resolve(path.dirname(file), fs.readlinkSync(file))
    } catch {}
    return { real, mode: undefined }
  }
}

/**
 * Writes `text` to `file` through a temporary file beside it, renamed over the original: a failed write (disk full,
 * an I/O error) leaves the old file whole, never a cut-off one, and removes the temporary file. The file stays as
 * it was apart from its text: its mode (a 0600 `.dev.vars` stays 0600, a 0444 config 0444) and, when it is a
 * symlink, the link, whose target is written instead.
 */
export function writeAtomic(file: string, text: string, io: WriteFs = fs): void {
  const { real, mode } = realFile(file)
  io.mkdirSync(path.dirname(real), { recursive: true })
  // Beside the file, so the rename stays on one file system (rename is atomic only there).
  const temporary = path.join(path.dirname(real), `.${path.basename(real)}.slotwise-${randomBytes(4).toString("hex")}`)
  try {
    // Created with the mode already (0600 never passes through 0644), then set exactly, past the umask.
    io.writeFileSync(temporary, text, mode === undefined ? {} : { mode: mode & 0o777 })
    if (mode !== undefined) (io.chmodSync ?? fs.chmodSync)(temporary, mode)
    io.renameSync(temporary, real)
  } catch (error) {
    io.rmSync(temporary, { force: true })
    throw error
  }
}
