import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { PGlite } from "@electric-sql/pglite"
import type { Client } from "@libsql/client"
import { sql } from "drizzle-orm"
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres"
import { drizzle as drizzlePglite } from "drizzle-orm/pglite"
import pg from "pg"
import { database } from "../../src/infra/db/index.ts"
import { claimStatement } from "../../src/infra/jobs/claim.ts"
import { claimSlot, releaseSlot } from "../../src/infra/jobs/lease.ts"
import { d1OverLibsql } from "../../src/infra/node/d1.ts"
import { openDatabase } from "../../src/infra/node/database.ts"
import { applyMigrations } from "../../src/infra/node/migrations.ts"
import type { ClaimEngine } from "../support/claim-scenarios.ts"

/** A fresh SQLite file's URL in its own temporary folder. */
export const freshFileUrl = () => `file:${path.join(mkdtempSync(path.join(tmpdir(), "slotwise-")), "slotwise.db")}`

/** A fresh SQLite file with the app's migrations applied, opened as the container opens it. */
export async function migratedDatabase(url = freshFileUrl()): Promise<{ client: Client; url: string }> {
  const client = await openDatabase(url)
  await applyMigrations(client, "migrations")
  return { client, url }
}

/** The claim as the container runs it: the engine's claimSlot over the D1 binding over libSQL. */
export function libsqlEngine(client: Client): ClaimEngine {
  const db = database(d1OverLibsql(client))
  return {
    claim: (request) => claimSlot(db, request),
    release: (name, holder) => releaseSlot(db, name, holder),
    lease: async (name) => {
      const [row] = await db.all<{ last_slot: number; lease_until: number | null; holder: string | null }>(
        sql`select last_slot, lease_until, holder from jobs_leases where name = ${name}`,
      )
      return row && { lastSlot: row.last_slot, leaseUntil: row.lease_until, holder: row.holder }
    },
  }
}

/** jobs_leases on Postgres: epoch milliseconds overflow INTEGER, so BIGINT. */
export const JOBS_LEASES_POSTGRES =
  "CREATE TABLE IF NOT EXISTS jobs_leases (name TEXT PRIMARY KEY, last_slot BIGINT NOT NULL, lease_until BIGINT, holder TEXT, lower_slot BIGINT, jump_start BIGINT); ALTER TABLE jobs_leases ADD COLUMN IF NOT EXISTS lower_slot BIGINT; ALTER TABLE jobs_leases ADD COLUMN IF NOT EXISTS jump_start BIGINT"

type PostgresDb = ReturnType<typeof drizzlePglite> | ReturnType<typeof drizzlePostgres>

/**
 * The claim on Postgres: the engine's one claim statement, run by drizzle's Postgres driver. The
 * engine has no Postgres release, so the release here is the engine's SQLite one written out.
 */
function postgresEngine(db: PostgresDb): ClaimEngine {
  const rows = async (statement: ReturnType<typeof sql>) =>
    (await (db as ReturnType<typeof drizzlePglite>).execute(statement)).rows as Record<string, unknown>[]
  const number = (value: unknown) => (value === null ? null : Number(value))
  return {
    claim: async (request) => (await rows(claimStatement(request))).length === 1,
    release: async (name, holder) =>
      (
        await rows(
          sql`update jobs_leases set lease_until = null, holder = null where name = ${name} and holder = ${holder} returning name`,
        )
      ).length === 1,
    lease: async (name) => {
      const [row] = await rows(sql`select last_slot, lease_until, holder from jobs_leases where name = ${name}`)
      return (
        row && {
          lastSlot: Number(row.last_slot),
          leaseUntil: number(row.lease_until),
          holder: row.holder as string | null,
        }
      )
    },
  }
}

/** Postgres in process (PGlite). */
export async function pgliteEngine(): Promise<{ engine: ClaimEngine; close: () => Promise<void> }> {
  const client = new PGlite()
  await client.exec(JOBS_LEASES_POSTGRES)
  return { engine: postgresEngine(drizzlePglite(client)), close: () => client.close() }
}

/** A real Postgres server (a pool of 20 connections, so the concurrent claims really are concurrent). */
export async function postgresServerEngine(url: string): Promise<{ engine: ClaimEngine; close: () => Promise<void> }> {
  const pool = new pg.Pool({ connectionString: url, max: 20 })
  await pool.query(JOBS_LEASES_POSTGRES)
  return { engine: postgresEngine(drizzlePostgres(pool)), close: () => pool.end() }
}
