import { randomBytes } from "node:crypto"
import { appendFile, readFile } from "node:fs/promises"
import { parseEnv } from "node:util"

export const DEV_VARS = ".dev.vars"

/**
 * The local ADMIN_TOKEN: the one in .dev.vars, or a new random one appended to it (the file is
 * created when missing; an existing token or other line is never overwritten).
 */
export async function ensureAdminToken(path = DEV_VARS): Promise<{ token: string; created: boolean }> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return ""
    throw error
  })
  const existing = parseEnv(text).ADMIN_TOKEN
  if (existing) return { token: existing, created: false }
  const token = randomBytes(24).toString("base64url")
  const separator = text === "" || text.endsWith("\n") ? "" : "\n"
  await appendFile(path, `${separator}ADMIN_TOKEN=${token}\n`, { mode: 0o600 })
  return { token, created: true }
}
