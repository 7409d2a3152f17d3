import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { ADMIN_TOKEN_SYNTAX } from "../../src/infra/admin/token.ts"
import { ensureDevVars } from "./dev-vars.ts"

let dir: string
let file: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "slotwise-dev-vars-"))
  file = path.join(dir, ".dev.vars")
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe("npm start's .dev.vars", () => {
  it("creates the file with a random token the bearer rule accepts and SLOTWISE_LOCAL=1", async () => {
    const { token, added } = await ensureDevVars(file)
    expect(token).toMatch(ADMIN_TOKEN_SYNTAX)
    expect(added).toEqual(["ADMIN_TOKEN", "SLOTWISE_LOCAL"])
    expect(await readFile(file, "utf8")).toBe(`ADMIN_TOKEN=${token}\nSLOTWISE_LOCAL=1\n`)
  })

  it("appends only what is missing, after the lines already there", async () => {
    await writeFile(file, "OTHER=1\nADMIN_TOKEN=c2VjcmV0+/~._-==")
    expect(await ensureDevVars(file)).toEqual({ token: "c2VjcmV0+/~._-==", added: ["SLOTWISE_LOCAL"] })
    expect(await readFile(file, "utf8")).toBe("OTHER=1\nADMIN_TOKEN=c2VjcmV0+/~._-==\nSLOTWISE_LOCAL=1\n")
  })

  it("never overwrites a line: a SLOTWISE_LOCAL already set stays as it is", async () => {
    const text = "SLOTWISE_LOCAL=0\nADMIN_TOKEN=abc\n"
    await writeFile(file, text)
    expect(await ensureDevVars(file)).toEqual({ token: "abc", added: [] })
    expect(await readFile(file, "utf8")).toBe(text)
  })

  it.each(['ADMIN_TOKEN="pa$$ word"\n', "ADMIN_TOKEN=user:secret\n", 'ADMIN_TOKEN="token#1"\n'])(
    "refuses %j, naming the rule, and leaves the file as it was",
    async (text) => {
      await writeFile(file, text)
      await expect(ensureDevVars(file)).rejects.toThrow(/ADMIN_TOKEN in .*must be an RFC 6750 b64token/)
      expect(await readFile(file, "utf8")).toBe(text)
    },
  )
})
