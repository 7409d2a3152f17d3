import { sql } from "drizzle-orm"
import { database } from "../../src/infra/db/index.ts"
import type { RunEnding } from "../../src/infra/jobs/contract/record.ts"
import { claimSlot, forceRelease, releaseSlot } from "../../src/infra/jobs/protocol/lease.ts"
import type { SlotClaimRequest } from "../../src/infra/jobs/protocol/slot-claim.ts"

/** A lease row as the claim scenarios read it. */
export interface LeaseRow {
  lastSlot: number
  leaseUntil: number | null
  leaseMs: number | null
  holder: string | null
  /** The run the last release recorded. */
  lastRunId: string | null
}

/** One database the claim statement runs on: D1, libSQL or Postgres, each under a D1 binding. */
export interface ClaimEngine {
  claim(request: SlotClaimRequest): Promise<boolean>
  /** Ends the lease if `holder` holds it, recording the run when told how it ended (the engine's release). */
  release(name: string, holder: string, ending?: RunEnding): Promise<boolean>
  lease(name: string): Promise<LeaseRow | undefined>
  /** The row's unreleased slots (slot-claim.ts), newest first. */
  unreleased(name: string): Promise<number[]>
  /** An operator's forced release (admin's DELETE /leases/:name?force=true): true if it ended a lease. */
  forceRelease(name: string): Promise<boolean>
  /** Writes a lease row as an older release's claim left it (no `lease_ms`, say), replacing any. */
  put(name: string, row: Omit<LeaseRow, "lastRunId">): Promise<void>
}

/** The claim as the Worker and the container run it: the engine's claimSlot and releaseSlot over a D1 binding. */
export function d1Engine(binding: D1Database): ClaimEngine {
  const db = database(binding)
  return {
    claim: (request) => claimSlot(db, request),
    release: (name, holder, ending) => releaseSlot(db, name, holder, ending),
    lease: async (name) => {
      const [row] = await db.all<{
        last_slot: number
        lease_until: number | null
        lease_ms: number | null
        holder: string | null
        last_run_id: string | null
      }>(sql`select last_slot, lease_until, lease_ms, holder, last_run_id from jobs_leases where name = ${name}`)
      return (
        row && {
          lastSlot: row.last_slot,
          leaseUntil: row.lease_until,
          leaseMs: row.lease_ms,
          holder: row.holder,
          lastRunId: row.last_run_id,
        }
      )
    },
    forceRelease: async (name) => (await forceRelease(db, name, true)).ended,
    unreleased: async (name) => {
      const [row] = await db.all<{ unreleased_slots: string | null }>(
        sql`select unreleased_slots from jobs_leases where name = ${name}`,
      )
      return row?.unreleased_slots ? row.unreleased_slots.split(",").map(Number) : []
    },
    put: async (name, { lastSlot, leaseUntil, leaseMs, holder }) => {
      await db.run(sql`delete from jobs_leases where name = ${name}`)
      await db.run(sql`insert into jobs_leases (name, last_slot, lease_until, lease_ms, holder)
        values (${name}, ${lastSlot}, ${leaseUntil}, ${leaseMs}, ${holder})`)
    },
  }
}
