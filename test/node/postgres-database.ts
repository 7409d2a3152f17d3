import { randomBytes } from "node:crypto"
import pg from "pg"
import { d1OverPostgres } from "../../src/infra/node/d1-postgres.ts"
import { openPostgres } from "../../src/infra/node/postgres.ts"
import { type ClaimEngine, d1Engine } from "../support/claim-engine.ts"
import { POSTGRES_URL_ENV } from "./postgres-server.ts"

/** The Node suite's server; a test that needs it fails (never skips) when it is missing. */
export function postgresServerUrl(): string {
  const url = process.env[POSTGRES_URL_ENV]
  if (!url) throw new Error(`${POSTGRES_URL_ENV} is unset: the Node suite's global setup starts a server`)
  return url
}

/** A fresh, empty database on the suite's server (so test files never share tables); answers its URL. */
export async function freshPostgresDatabase(serverUrl = postgresServerUrl()): Promise<string> {
  const name = `slotwise_${randomBytes(6).toString("hex")}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** A pool as the container opens one. */
export const containerPool = (url: string) =>
  openPostgres(url, { poolMax: 10, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000 })

/** The claim as the container runs it on PostgreSQL: the engine's claimSlot over the D1 binding over a pool. */
export const containerPostgresEngine = (pool: pg.Pool): ClaimEngine => d1Engine(d1OverPostgres(pool))
