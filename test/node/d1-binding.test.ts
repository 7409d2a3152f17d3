import type { Client } from "@libsql/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/libsql/libsql-binding.ts"
import { database } from "../../src/slices/billing/db.ts"
import {
  closeTrialsDueAt,
  recordUsage,
  rollUpUsageThrough,
  startTrial,
  usageTotalOf,
} from "../../src/slices/billing/queries.ts"
import { migratedDatabase } from "./engines.ts"

const SLOT = Date.UTC(2026, 10, 30, 3, 0)

describe("the container's D1 binding over libSQL", () => {
  let client: Client
  let DB: D1Database
  beforeAll(async () => {
    client = (await migratedDatabase()).client
    DB = d1OverLibsql(client)
  })
  afterAll(() => client.close())

  it("answers prepared statements as D1 does: all, first, raw and run", async () => {
    await DB.prepare("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, flag INTEGER)").run()
    const inserted = await DB.prepare("INSERT INTO notes (body, flag) VALUES (?, ?)").bind("hello", true).run()
    expect(inserted).toMatchObject({ success: true, meta: { changes: 1, last_row_id: 1 } })
    expect(await DB.prepare("SELECT * FROM notes").all()).toMatchObject({
      success: true,
      results: [{ id: 1, body: "hello", flag: 1 }],
    })
    expect(await DB.prepare("SELECT body FROM notes WHERE id = ?").bind(1).first("body")).toBe("hello")
    expect(await DB.prepare("SELECT body FROM notes WHERE id = ?").bind(2).first()).toBeNull()
    expect(await DB.prepare("SELECT id, body FROM notes").raw()).toEqual([[1, "hello"]])
    expect(await DB.prepare("SELECT id, body FROM notes").raw({ columnNames: true })).toEqual([
      ["id", "body"],
      [1, "hello"],
    ])
  })

  it("refuses a value D1 cannot bind, naming its position", () => {
    expect(() => DB.prepare("SELECT ?, ?").bind(1, undefined)).toThrow(/D1_TYPE_ERROR.*value 2/)
  })

  it("runs a batch all or nothing, as D1 does", async () => {
    await DB.prepare("CREATE TABLE counted (n INTEGER NOT NULL)").run()
    const batch = DB.batch([
      DB.prepare("INSERT INTO counted (n) VALUES (?)").bind(1),
      DB.prepare("INSERT INTO counted (n) VALUES (?)").bind(null),
    ])
    await expect(batch).rejects.toThrow(/NOT NULL/)
    expect(await DB.prepare("SELECT count(*) AS n FROM counted").first("n")).toBe(0)
    const results = await DB.batch([
      DB.prepare("INSERT INTO counted (n) VALUES (?) RETURNING n").bind(7),
      DB.prepare("SELECT sum(n) AS total FROM counted"),
    ])
    expect(results.map((result) => result.results)).toEqual([[{ n: 7 }], [{ total: 7 }]])
  })

  it("runs the billing slice's queries unchanged (drizzle's D1 driver, a batch)", async () => {
    const db = database(DB)
    await recordUsage(db, "acme", 3, SLOT - 1)
    await recordUsage(db, "acme", 4, SLOT)
    await recordUsage(db, "acme", 5, SLOT + 1)
    expect(await rollUpUsageThrough(db, SLOT)).toBe(2)
    expect(await rollUpUsageThrough(db, SLOT)).toBe(0)
    expect(await usageTotalOf(db, "acme")).toEqual({ account: "acme", quantity: 7, throughSlot: SLOT })
    await startTrial(db, "acme", SLOT)
    expect(await closeTrialsDueAt(db, SLOT)).toBe(1)
  })
})
