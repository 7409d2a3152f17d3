import { randomBytes } from "node:crypto"
import { appendFile, readFile } from "node:fs/promises"
import { parseEnv } from "node:util"
import { ADMIN_TOKEN_RULE, ADMIN_TOKEN_SYNTAX } from "../../src/infra/admin/token.ts"

export const DEV_VARS = ".dev.vars"

/**
 * The local ADMIN_TOKEN and SLOTWISE_LOCAL=1 (which lets billing webhooks be http://127.0.0.1):
 * each kept as .dev.vars has it, or appended when missing (the file is created when missing; an
 * existing line is never overwritten). A token the admin door could never accept stops
 * `npm start` with the rule.
 */
export async function ensureDevVars(path = DEV_VARS): Promise<{ token: string; added: string[] }> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return ""
    throw error
  })
  const vars = parseEnv(text)
  if (vars.ADMIN_TOKEN && !ADMIN_TOKEN_SYNTAX.test(vars.ADMIN_TOKEN)) {
    throw new Error(
      `ADMIN_TOKEN in ${path} ${ADMIN_TOKEN_RULE}, so admin could never log in with it: replace it, or delete its line and npm start writes a new random one`,
    )
  }
  const missing: Record<string, string> = {}
  // base64url is inside the rule.
  if (!vars.ADMIN_TOKEN) missing.ADMIN_TOKEN = randomBytes(24).toString("base64url")
  if (vars.SLOTWISE_LOCAL === undefined) missing.SLOTWISE_LOCAL = "1"
  const lines = Object.entries(missing).map(([name, value]) => `${name}=${value}\n`)
  if (lines.length > 0) {
    const separator = text === "" || text.endsWith("\n") ? "" : "\n"
    await appendFile(path, `${separator}${lines.join("")}`, { mode: 0o600 })
  }
  return { token: (vars.ADMIN_TOKEN || missing.ADMIN_TOKEN) as string, added: Object.keys(missing) }
}
