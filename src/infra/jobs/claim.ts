import { type SQL, sql } from "drizzle-orm"

export interface ClaimRequest {
  name: string
  slot: number
  now: number
  leaseMs: number
  holder: string
}

/**
 * Seed Decision 5, written once: the claim as one SQL text that D1, SQLite (libSQL) and Postgres
 * run unchanged, only the placeholders numbered by each driver. One row back means `holder` owns
 * the slot. `last_slot < slot` stops a retried or late fire; `lease_until < now` stops overlap; a
 * lease beyond now + 2 x lease was written by a clock that jumped, and is reclaimed. Epoch-ms
 * columns must be 64-bit (SQLite's INTEGER is; on Postgres, BIGINT).
 *
 * @example
 * ```ts
 * const won = (await sqliteDb.all(claimStatement(claim))).length === 1   // D1, libSQL
 * const won = (await pgDb.execute(claimStatement(claim))).rows.length === 1 // Postgres
 * ```
 */
export const claimStatement = ({ name, slot, now, leaseMs, holder }: ClaimRequest): SQL =>
  sql`insert into jobs_leases (name, last_slot, lease_until, holder)
values (${name}, ${slot}, ${now + leaseMs}, ${holder})
on conflict (name) do update
  set last_slot = excluded.last_slot, lease_until = excluded.lease_until, holder = excluded.holder
  where jobs_leases.last_slot < excluded.last_slot
    and (jobs_leases.lease_until is null or jobs_leases.lease_until < ${now}
         or jobs_leases.lease_until > ${now + 2 * leaseMs})
returning name`
