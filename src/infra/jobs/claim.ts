import { type SQL, sql } from "drizzle-orm"

export interface ClaimRequest {
  name: string
  slot: number
  now: number
  leaseMs: number
  holder: string
}

/**
 * ARCHITECTURE.md, "A slot's claim and release", written once: the claim as one SQL text that D1, SQLite (libSQL) and Postgres
 * run unchanged, only the placeholders numbered by each driver. One row back means `holder` owns
 * the slot. `last_slot < slot` stops a retried or late fire; `lease_until < now` stops overlap; a
 * lease beyond now + 2 x lease was written by a clock that jumped, and is reclaimed.
 *
 * A last_slot beyond now + 2 x lease was written by a clock that jumped too, and is reclaimed the
 * same way, but only for a slot between `lower_slot` and `jump_start`. A claim more than 2 x lease
 * above last_slot is a jump: it sets lower_slot to last_slot's value from before it and jump_start to
 * its own slot, the first of the range the clock ahead runs early; each slot claimed below last_slot
 * since moves lower_slot up to it. Every slot strictly between the two is unclaimed, so a slot is
 * never claimed twice, whatever the clocks say; the clock ahead's slots are never run again on time.
 * The clause holds only while last_slot is more than 2 x lease ahead of the claimant, so a clock
 * that claims less than 2 x lease past its jump costs the others the slots below jump_start that
 * come due within 2 x lease of its newest slot. A second jump while last_slot is far ahead replaces
 * both columns: the slots left between the first pair are lost, never run twice. last_slot itself
 * never goes down. Epoch-ms columns must be 64-bit (SQLite's INTEGER is; on Postgres, BIGINT).
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
      jump_start = case when jobs_leases.last_slot < ${slot - 2 * leaseMs} then excluded.last_slot
                        else jobs_leases.jump_start end,
      lease_until = excluded.lease_until, holder = excluded.holder
  where (jobs_leases.last_slot < excluded.last_slot
         or (jobs_leases.last_slot > ${jumped} and jobs_leases.lower_slot < excluded.last_slot
             and excluded.last_slot < jobs_leases.jump_start and excluded.last_slot <= ${jumped}))
    and (jobs_leases.lease_until is null or jobs_leases.lease_until < ${now}
         or jobs_leases.lease_until > ${jumped})
returning name`
}
