import { execFileSync } from "node:child_process"

/** Whether git tracks `file` in `cwd`'s repository; false outside one, or where git is not installed. */
export function trackedByGit(cwd: string, file: string): boolean {
  try {
    execFileSync("git", ["ls-files", "--error-unmatch", "--", file], { cwd, stdio: "ignore", timeout: 10_000 })
    return true
  } catch {
    return false
  }
}
