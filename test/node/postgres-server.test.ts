import { existsSync } from "node:fs"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { POSTGRES_URL_ENV, startPostgres } from "./postgres-server.ts"

const version = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<{ version: string }>("select version()")).rows[0]?.version
  } finally {
    await client.end()
  }
}

describe("the Node suite's real PostgreSQL server", () => {
  it("is there for every test file: the global setup hands its URL over in SLOTWISE_TEST_POSTGRES_URL", async () => {
    const url = process.env[POSTGRES_URL_ENV]
    expect(url).toMatch(/^postgres(ql)?:\/\//)
    expect(await version(url as string)).toMatch(/^PostgreSQL \d+/)
  })

  it("starts from npm on loopback, answers, and stops leaving no data folder", async () => {
    const server = await startPostgres()
    try {
      expect(new URL(server.url).hostname).toBe("127.0.0.1")
      expect(await version(server.url)).toMatch(/^PostgreSQL 17\.10\b/)
      expect(existsSync(server.folder)).toBe(true)
    } finally {
      await server.stop()
    }
    expect(existsSync(server.folder)).toBe(false)
    await expect(version(server.url)).rejects.toThrow(/ECONNREFUSED/)
  })
})
