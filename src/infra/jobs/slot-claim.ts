import { type SQL, sql } from "drizzle-orm"
import { LEASE_MARGIN_MS, MAX_TIMEOUT_MS } from "./definition.ts"

/**
 * How far past the database's clock a slot may lie and still be claimed: a claimant whose clock runs
 * ahead of the database's (or a database whose clock runs behind the claimant's) by at most this much
 * runs its slots, at most this early; by more, its slots are refused as not yet due.
 */
export const CLOCK_TOLERANCE_MS = 10_000

export interface SlotClaimRequest {
  name: string
  slot: number
  leaseMs: number
  holder: string
  /**
   * The database's clock as a test stands it in (epoch ms). Unset, as in production, the claim reads
   * the database's own clock (DATABASE_NOW); the claimant's clock only ever names the slot.
   */
  now?: number
}

/**
 * The lease a row without `lease_ms` is judged by: the longest a job can have (a 15-minute timeout + 1
 * minute). Such a lease was written by a claim from before `lease_ms` (0.1.0's, which a gradual deployment
 * runs beside this one, and which never writes it: the release clears it with the lease, so 0.1.0's lease
 * never carries another run's); migration 0007 gives its older rows the same value. So a lease ending more
 * than 32 minutes past the database's now is reclaimed, and one within is held until it ends.
 */
export const UNKNOWN_LEASE_MS = MAX_TIMEOUT_MS + LEASE_MARGIN_MS

/**
 * The database's clock in epoch milliseconds, one value per statement: SQLite's own function on D1 and
 * libSQL; on PostgreSQL, the function of the same name and meaning the twin of migration 0007 creates
 * (statement_timestamp()). The same text on all three.
 */
export const DATABASE_NOW: SQL = sql`cast(round(unixepoch('now', 'subsec') * 1000) as bigint)`

/**
 * ARCHITECTURE.md, "A slot's claim and release", written once: the claim as one SQL text that D1, SQLite
 * (libSQL) and Postgres run unchanged, only the placeholders numbered by each driver. One row back means
 * `holder` owns the slot. Every time in it is the database's: a slot more than CLOCK_TOLERANCE_MS past the
 * database's now is not yet due and is refused, first claim included, so no claimant's clock can move
 * `last_slot` ahead of the database's; `last_slot < slot` stops a retried or late fire; the lease is written
 * as the database's now + lease, with its length (`lease_ms`) beside it, and `lease_until < now` stops
 * overlap whatever lease the claimant has. A lease ending more than twice its own length past now (the
 * database's clock went back since it was written) is reclaimed: it is judged by what its holder wrote,
 * never by the claimant's timeout (a row without one, by UNKNOWN_LEASE_MS). `last_slot` never goes down, so no slot is claimed twice. Epoch-ms
 * columns must be 64-bit (SQLite's INTEGER is; on Postgres, BIGINT); parameters are cast, as
 * Postgres types those of an INSERT … SELECT as text otherwise.
 *
 * @example
 * ```ts
 * const won = (await sqliteDb.all(slotClaimStatement(claim))).length === 1   // D1, libSQL
 * const won = (await pgDb.execute(slotClaimStatement(claim))).rows.length === 1 // Postgres
 * ```
 */
export const slotClaimStatement = ({ name, slot, leaseMs, holder, now }: SlotClaimRequest): SQL => {
  const clock = now === undefined ? DATABASE_NOW : sql`cast(${now} as bigint)`
  return sql`insert into jobs_leases (name, last_slot, lease_until, lease_ms, holder)
select cast(${name} as text), claim.slot, claim.now_ms + claim.lease_ms, claim.lease_ms, cast(${holder} as text)
from (select cast(${slot} as bigint) as slot, cast(${leaseMs} as bigint) as lease_ms, ${clock} as now_ms) as claim
where claim.slot <= claim.now_ms + ${CLOCK_TOLERANCE_MS}
on conflict (name) do update
  set last_slot = excluded.last_slot, lease_until = excluded.lease_until, lease_ms = excluded.lease_ms,
      holder = excluded.holder
  where jobs_leases.last_slot < excluded.last_slot
    and (jobs_leases.lease_until is null or jobs_leases.lease_until < excluded.lease_until - excluded.lease_ms
         or jobs_leases.lease_until > excluded.lease_until - excluded.lease_ms
                                      + 2 * coalesce(jobs_leases.lease_ms, ${sql.raw(String(UNKNOWN_LEASE_MS))}))
returning name`
}
