import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { ADMIN_TOKEN_SYNTAX } from "../../src/infra/admin/token.ts"
import { ensureAdminToken } from "./dev-vars.ts"

let dir: string
let file: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "slotwise-dev-vars-"))
  file = path.join(dir, ".dev.vars")
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe("npm start's .dev.vars", () => {
  it("creates a random token the bearer rule accepts, after the lines already there", async () => {
    await writeFile(file, "OTHER=1")
    const { token, created } = await ensureAdminToken(file)
    expect(created).toBe(true)
    expect(token).toMatch(ADMIN_TOKEN_SYNTAX)
    expect(await readFile(file, "utf8")).toBe(`OTHER=1\nADMIN_TOKEN=${token}\n`)
  })

  it("keeps a token the rule accepts", async () => {
    await writeFile(file, "ADMIN_TOKEN=c2VjcmV0+/~._-==\n")
    expect(await ensureAdminToken(file)).toEqual({ token: "c2VjcmV0+/~._-==", created: false })
  })

  it.each(['ADMIN_TOKEN="pa$$ word"\n', "ADMIN_TOKEN=user:secret\n", 'ADMIN_TOKEN="token#1"\n'])(
    "refuses %j, naming the rule, and leaves the file as it was",
    async (text) => {
      await writeFile(file, text)
      await expect(ensureAdminToken(file)).rejects.toThrow(/ADMIN_TOKEN in .*must be an RFC 6750 b64token/)
      expect(await readFile(file, "utf8")).toBe(text)
    },
  )
})
