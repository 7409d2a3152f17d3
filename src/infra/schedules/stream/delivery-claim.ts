import * as core from "./core/index.ts"
import type { ClaimEntry } from "./ledger.ts"
import { tokenOf } from "./ledger.ts"
import type { ScheduleRow } from "./row.ts"
import type { ScheduleStore } from "./store.ts"

/** A row a tick claimed, with its ticket. */
export interface Claimed {
  row: ScheduleRow
  claim: core.Claim
}

/**
 * The claim (ARCHITECTURE.md, "Deliveries"): selects at most `limit` due rows and claims them in one transaction, each
 * rechecked by the core against what the selection saw, with a token of the batch's claim number and `leaseOf` its
 * consumer (`stream` names the keys a skipped occurrence's jitter is drawn from). The batch is one record (ledger.ts), one row written for up to 32 claims; the rows themselves are not
 * written. A last allowed attempt that was lost is given up instead. An idle tick only reads; a storage error claims
 * none of them (the transaction rolls back) and is thrown.
 */
export function claimDue(
  store: ScheduleStore,
  now: number,
  limit: number,
  leaseOf: (consumer: string) => number,
  stream = "",
): Claimed[] {
  if (limit <= 0) return []
  // Synchronous from here to the commit: no other call runs between this read and the claims.
  const due = store.selectDue(now, limit)
  if (due.length === 0) return []
  return store.transaction(() => {
    const seq = store.nextClaim()
    const claimed: Claimed[] = []
    const entries: ClaimEntry[] = []
    for (const row of due) {
      const seen = { id: row.id, occurrence: row.occurrence, nextAt: row.nextAt, attempts: row.attempts }
      const lost = core.expireLost(row, seen, now, stream)
      if (lost) {
        store.apply(lost, now, row)
        continue
      }
      const next = core.claim(row, seen, now, tokenOf(seq, entries.length), leaseOf(row.consumer))
      if (!next) continue
      claimed.push(next)
      entries.push({ id: row.id, attempt: next.claim.attempts, until: next.claim.claimUntil })
    }
    store.claim(seq, now, entries)
    return claimed
  })
}
