import { randomBytes } from "node:crypto"
import { appendFile, readFile } from "node:fs/promises"
import { parseEnv } from "node:util"
import { ADMIN_TOKEN_RULE, ADMIN_TOKEN_SYNTAX } from "../../src/infra/admin/token.ts"

export const DEV_VARS = ".dev.vars"

/**
 * The local ADMIN_TOKEN: the one in .dev.vars, or a new random one appended to it (the file is
 * created when missing; an existing token or other line is never overwritten). A token the
 * admin door could never accept stops `npm start` with the rule.
 */
export async function ensureAdminToken(path = DEV_VARS): Promise<{ token: string; created: boolean }> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return ""
    throw error
  })
  const existing = parseEnv(text).ADMIN_TOKEN
  if (existing && !ADMIN_TOKEN_SYNTAX.test(existing)) {
    throw new Error(
      `ADMIN_TOKEN in ${path} ${ADMIN_TOKEN_RULE}, so admin could never log in with it: replace it, or delete its line and npm start writes a new random one`,
    )
  }
  if (existing) return { token: existing, created: false }
  // base64url is inside the rule.
  const token = randomBytes(24).toString("base64url")
  const separator = text === "" || text.endsWith("\n") ? "" : "\n"
  await appendFile(path, `${separator}ADMIN_TOKEN=${token}\n`, { mode: 0o600 })
  return { token, created: true }
}
