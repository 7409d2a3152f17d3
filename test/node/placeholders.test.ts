import { type Client, createClient } from "@libsql/client"
import fc from "fast-check"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { d1OverLibsql } from "../../src/infra/node/d1.ts"
import { d1OverPostgres } from "../../src/infra/node/d1-postgres.ts"
import { numberPlaceholders } from "../../src/infra/node/placeholders.ts"
import { containerPool, freshPostgresDatabase } from "./postgres-database.ts"

/** What a statement answers through a container binding, bound to `values`: its rows as arrays. */
const rowsOf = (DB: D1Database, sql: string, values: string[]) =>
  DB.prepare(sql)
    .bind(...values)
    .raw()

const valuesUpTo = (count: number) => Array.from({ length: count }, (_, i) => `v${i + 1}`)

describe("numberPlaceholders: D1's ? and ?NNN numbered as SQLite numbers them", () => {
  let sqlite: Client
  let pool: pg.Pool
  let overSqlite: D1Database
  let overPostgres: D1Database
  beforeAll(async () => {
    sqlite = createClient({ url: ":memory:" })
    overSqlite = d1OverLibsql(sqlite)
    pool = await containerPool(await freshPostgresDatabase())
    overPostgres = d1OverPostgres(pool)
  })
  afterAll(async () => {
    sqlite.close()
    await pool.end()
  })

  /** The statement answers the same rows through the libSQL binding (SQLite's numbering) and the PostgreSQL one. */
  async function expectSameAnswer(sql: string, values: string[]) {
    const expected = await rowsOf(overSqlite, sql, values)
    expect(await rowsOf(overPostgres, sql, values), sql).toEqual(expected)
    return expected
  }

  it.each<[string, string, string, unknown[][]]>([
    ["a ? in a block comment", "SELECT /* ? */ ?, ?", "SELECT   $1, $2", [["v1", "v2"]]],
    ["a ? in a -- comment", "SELECT ? -- ?\n, ?", "SELECT $1  \n, $2", [["v1", "v2"]]],
    ["a -- comment past a carriage return", "SELECT ? -- a\r?\n, ?", "SELECT $1  \n, $2", [["v1", "v2"]]],
    ["a block comment opened twice", "SELECT /* /* */ ?, ? /* ? */", "SELECT   $1, $2  ", [["v1", "v2"]]],
    ["a comment between two minus signs", "SELECT 2-/**/-1, ?", "SELECT 2- -1, $1", [[3, "v1"]]],
    ["a ? in a string literal", "SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1", [["it's ?", "v1"]]],
    ["a ? in a quoted name", 'SELECT ? AS "a?""b", ?', 'SELECT $1 AS "a?""b", $2', [["v1", "v2"]]],
    ["bare ?", "SELECT ?, ?, ?", "SELECT $1, $2, $3", [["v1", "v2", "v3"]]],
    ["?NNN, repeated", "SELECT ?2, ?1, ?2", "SELECT $2, $1, $2", [["v2", "v1", "v2"]]],
    ["?NNN with leading zeros", "SELECT ?01, ?002", "SELECT $1, $2", [["v1", "v2"]]],
    ["a bare ? after ?NNN: the largest so far + 1", "SELECT ?2, ?, ?1", "SELECT $2, $3, $1", [["v2", "v3", "v1"]]],
    ["a bare ? after a lower ?NNN", "SELECT ?3, ?1, ?, ?2", "SELECT $3, $1, $4, $2", [["v3", "v1", "v4", "v2"]]],
    ["? next to a keyword", 'SELECT?AS"x"LIMIT?', 'SELECT $1 AS"x"LIMIT $2', [["v1"]]],
    ["an unclosed block comment at the end", "SELECT ? /* ? ", "SELECT $1  ", [["v1"]]],
  ])("%s: %j becomes %j, with SQLite's answer on PostgreSQL", async (_what, sql, numbered, rows) => {
    expect(numberPlaceholders(sql)).toBe(numbered)
    const count = Math.max(0, ...[...numbered.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))
    const values = valuesUpTo(count)
    // LIMIT binds a count: the last value of that case is a number both engines take.
    if (sql.endsWith("LIMIT?")) values[count - 1] = "1"
    expect(await expectSameAnswer(sql, values)).toEqual(rows)
  })

  it.each<[string, string, string]>([
    ["a [quoted name]", "SELECT ? AS [a?b], ?", "SELECT $1 AS [a?b], $2"],
    ["a `quoted name`", "SELECT ? AS `a?``?`, ?", "SELECT $1 AS `a?``?`, $2"],
  ])("skips a ? in %s as SQLite does (PostgreSQL has no such quotes)", async (_what, sql, numbered) => {
    expect(numberPlaceholders(sql)).toBe(numbered)
    expect(await rowsOf(overSqlite, sql, ["v1", "v2"])).toEqual([["v1", "v2"]])
  })

  it("numbers any generated statement as SQLite does: the same rows on SQLite, and on the PostgreSQL server", async () => {
    await fc.assert(
      fc.asyncProperty(statement({ postgres: false }), async ({ sql, values }) => {
        // $k back to ?k: SQLite itself says whether each value lands where its own numbering put it.
        const renumbered = numberPlaceholders(sql).replace(/\$(\d+)/g, "?$1")
        expect(await rowsOf(overSqlite, renumbered, values), sql).toEqual(await rowsOf(overSqlite, sql, values))
      }),
      { numRuns: 500 },
    )
    await fc.assert(
      fc.asyncProperty(statement({ postgres: true }), async ({ sql, values }) => {
        await expectSameAnswer(sql, values)
      }),
      { numRuns: 200 },
    )
  })
})

/** Text with every character that opens, closes or hides a placeholder somewhere. */
const text = (postgres: boolean) =>
  fc.string({
    unit: fc.constantFrom(
      ..."?'\"-/*\r[]`\\ a1é".split(""),
      // `$` only where the check does not read $k back as ?k; PostgreSQL takes it in text.
      ...(postgres ? ["$1", "$"] : []),
    ),
    maxLength: 8,
  })

/** The highest ?NNN generated: with one more per placeholder, a bound on the largest number SQLite gives. */
const HIGHEST = 9

/**
 * A SELECT of string literals, placeholders (?, ?NNN, ?0NN) and placeholders named by quoted names,
 * with comments and spaces (or nothing) between every two tokens, then ?1 … ?N up to a bound on its
 * largest number, so that every number is used (PostgreSQL refuses a parameter it cannot type), and
 * the values it binds.
 */
function statement({ postgres }: { postgres: boolean }) {
  const gap = fc
    .array(
      fc.oneof(
        fc.constantFrom("", " ", "\n", "\t"),
        text(postgres).map((body) => `/*${body.replaceAll("*/", "* /")}*/`),
        text(postgres).map((body) => `--${body}\n`),
      ),
      { maxLength: 3 },
    )
    .map((parts) => parts.join(""))
  const placeholder = fc.oneof(
    fc.constant("?"),
    fc.integer({ min: 1, max: HIGHEST }).map((n) => `?${n}`),
    fc.integer({ min: 1, max: HIGHEST }).map((n) => `?0${n}`),
  )
  const quoted = (open: string, close: string) =>
    text(postgres).map(
      (body) => `${open}n${close === "]" ? body.replaceAll("]", "") : body.replaceAll(close, close + close)}${close}`,
    )
  const name = postgres ? quoted('"', '"') : fc.oneof(quoted('"', '"'), quoted("[", "]"), quoted("`", "`"))
  const literal = text(postgres).map((body) => `'${body.replaceAll("'", "''")}'`)
  // Each item with how many placeholders it holds.
  const item = fc.oneof(
    placeholder.map((p) => [p, 1] as const),
    literal.map((l) => [l, 0] as const),
    fc.tuple(placeholder, gap, gap, name).map(([p, g1, g2, n]) => [`${p}${g1} AS${g2}${n}`, 1] as const),
    fc.tuple(gap, placeholder, gap).map(([g1, p, g2]) => [`(${g1}${p}${g2})`, 1] as const),
  )
  return fc.tuple(gap, fc.array(fc.tuple(item, gap, gap), { minLength: 1, maxLength: 6 })).map(([head, items]) => {
    const listed = items.map(([[it], before, after]) => `${before}${it}${after}`).join(",")
    const count = HIGHEST + items.reduce((sum, [[, placeholders]]) => sum + placeholders, 0)
    const all = Array.from({ length: count }, (_, i) => `?${i + 1}`).join(", ")
    return { sql: `SELECT${head}${listed}, ${all}`, values: valuesUpTo(count) }
  })
}
