import { BINDING } from "./bindings.ts"

/**
 * Where `wrangler dev` reads the admin token: `.dev.vars`, or `.env` when the Worker keeps its local secrets there
 * and has no `.dev.vars` (wrangler reads `.env` only then, so creating `.dev.vars` would hide them).
 */
export const secretsFile = (has: (file: string) => boolean) => (!has(".dev.vars") && has(".env") ? ".env" : ".dev.vars")

/** The file's text with an ADMIN_TOKEN line added, or undefined when it has one: a secret is never overwritten. */
export function withAdminToken(text: string | undefined, token: string): string | undefined {
  const current = text ?? ""
  if (new RegExp(`^\\s*(?:export\\s+)?${BINDING.adminToken}\\s*=`, "m").test(current)) return undefined
  const eol = current.includes("\r\n") ? "\r\n" : "\n"
  const separator = current.length > 0 && !current.endsWith("\n") ? eol : ""
  return `${current}${separator}${BINDING.adminToken}=${token}${eol}`
}

/** .gitignore's text with the secrets file added, or undefined when a line already ignores it. */
export function ignoring(gitignore: string, file: string): string | undefined {
  const lines = gitignore.split(/\r?\n/).map((line) => line.trim())
  const covers = (pattern: string) => {
    const bare = pattern.replace(/^\//, "")
    return bare === file || (bare.endsWith("*") && file.startsWith(bare.slice(0, -1)))
  }
  if (lines.some(covers)) return undefined
  const eol = gitignore.includes("\r\n") ? "\r\n" : "\n"
  const separator = gitignore.length > 0 && !gitignore.endsWith("\n") ? eol : ""
  return `${gitignore}${separator}${file}${eol}`
}
