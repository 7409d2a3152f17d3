import * as core from "./core.ts"
import type { ScheduleRow } from "./row.ts"
import type { ScheduleStore } from "./store.ts"

/** A row a tick claimed, with its ticket. */
export interface Claimed {
  row: ScheduleRow
  claim: core.Claim
}

/**
 * The claim (ARCHITECTURE.md, "Deliveries"): selects at most `limit` due rows and claims them in one transaction, each
 * rechecked by the core against what the selection saw, with a fresh token and `leaseOf` its
 * consumer. A last allowed attempt that was lost is given up instead. An idle tick only reads;
 * a storage error claims none of them (the transaction rolls back) and is thrown.
 */
export function claimDue(
  store: ScheduleStore,
  now: number,
  limit: number,
  leaseOf: (consumer: string) => number,
): Claimed[] {
  if (limit <= 0) return []
  // Synchronous from here to the commit: no other call runs between this read and the claims.
  const due = store.selectDue(now, limit)
  if (due.length === 0) return []
  return store.transaction(() => {
    const claimed: Claimed[] = []
    const writes: Array<readonly [ScheduleRow, ScheduleRow]> = []
    for (const row of due) {
      const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
      const lost = core.expireLost(row, seen, now)
      if (lost) {
        store.apply(lost, now, row)
        continue
      }
      const next = core.claim(row, seen, now, crypto.randomUUID(), leaseOf(row.consumer))
      if (!next) continue
      claimed.push(next)
      writes.push([row, next.row])
    }
    // Written together: the claims that change the same columns share one statement.
    store.updateMany(writes)
    return claimed
  })
}
