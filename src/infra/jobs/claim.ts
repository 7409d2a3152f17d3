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
 * lease beyond now + 2 x lease was written by a clock that jumped, and is reclaimed.
 *
 * A last_slot beyond now + 2 x lease was written by a clock that jumped too, and is reclaimed the
 * same way, but only for a slot above `lower_slot`: the newest slot claimed below last_slot, which
 * keeps last_slot's value from before the jump (a claim more than 2 x lease above last_slot) and
 * every slot claimed past it since. So a slot is never claimed twice from clocks within 2 x lease
 * of each other, however many claims a replica ahead of them (or behind) makes in between; last_slot
 * itself never goes down. Epoch-ms columns must be 64-bit (SQLite's INTEGER is; on Postgres, BIGINT).
 *
 * @example
 * ```ts
 * const won = (await sqliteDb.all(claimStatement(claim))).length === 1   // D1, libSQL
 * const won = (await pgDb.execute(claimStatement(claim))).rows.length === 1 // Postgres
 * ```
 */
export const claimStatement = ({ name, slot, now, leaseMs, holder }: ClaimRequest): SQL => {
  const jumped = now + 2 * leaseMs
  return sql`insert into jobs_leases (name, last_slot, lease_until, holder)
values (${name}, ${slot}, ${now + leaseMs}, ${holder})
on conflict (name) do update
  set last_slot = case when jobs_leases.last_slot < excluded.last_slot then excluded.last_slot else jobs_leases.last_slot end,
      lower_slot = case when jobs_leases.last_slot >= excluded.last_slot then excluded.last_slot
                        when jobs_leases.last_slot < ${slot - 2 * leaseMs} then jobs_leases.last_slot
                        else jobs_leases.lower_slot end,
      lease_until = excluded.lease_until, holder = excluded.holder
  where (jobs_leases.last_slot < excluded.last_slot
         or (jobs_leases.last_slot > ${jumped} and jobs_leases.lower_slot < excluded.last_slot
             and excluded.last_slot <= ${jumped}))
    and (jobs_leases.lease_until is null or jobs_leases.lease_until < ${now}
         or jobs_leases.lease_until > ${jumped})
returning name`
}
