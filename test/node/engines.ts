import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { PGlite } from "@electric-sql/pglite"
import type { Client } from "@libsql/client"
import { d1OverLibsql } from "../../src/infra/node/d1.ts"
import { type BoundStatement, type DriverAnswer, d1Binding } from "../../src/infra/node/d1-binding.ts"
import { openDatabase } from "../../src/infra/node/database.ts"
import { applyMigrations } from "../../src/infra/node/migrations.ts"
import { numberPlaceholders } from "../../src/infra/node/placeholders.ts"
import { type ClaimEngine, d1Engine } from "../support/claim-engine.ts"

/** A fresh SQLite file's URL in its own temporary folder. */
export const freshFileUrl = () => `file:${path.join(mkdtempSync(path.join(tmpdir(), "slotwise-")), "slotwise.db")}`

/** A fresh SQLite file with the app's migrations applied, opened as the container opens it. */
export async function migratedDatabase(url = freshFileUrl()): Promise<{ client: Client; url: string }> {
  const client = await openDatabase(url)
  await applyMigrations(client, "migrations")
  return { client, url }
}

/** The claim as the container runs it on its SQLite file: over the D1 binding over libSQL. */
export const libsqlEngine = (client: Client): ClaimEngine => d1Engine(d1OverLibsql(client))

/** Postgres in process (PGlite) under a D1 binding, as the container's over a pool, with the PostgreSQL twins applied. */
export async function pgliteEngine(): Promise<{ engine: ClaimEngine; close: () => Promise<void> }> {
  const client = new PGlite()
  const folder = "migrations/postgres"
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .sort())
    await client.exec(readFileSync(path.join(folder, file), "utf8"))
  const run = async (on: Pick<PGlite, "query">, { sql: text, args }: BoundStatement): Promise<DriverAnswer> => {
    const result = await on.query<unknown[]>(numberPlaceholders(text), args, { rowMode: "array" })
    return {
      columns: result.fields.map((field) => field.name),
      rows: result.rows,
      changes: result.affectedRows ?? 0,
      lastRowId: 0,
    }
  }
  const binding = d1Binding({
    name: "PGlite",
    run: (statement) => run(client, statement),
    batch: (statements) =>
      client.transaction(async (tx) => {
        const answers: DriverAnswer[] = []
        for (const statement of statements) answers.push(await run(tx, statement))
        return answers
      }),
  })
  return { engine: d1Engine(binding), close: () => client.close() }
}
