import type { Claim } from "../../src/infra/schedules/stream/core/claim.ts"
import type { Model } from "./model.ts"

/**
 * No two deliveries of one idempotency key overlap in time: a claim made at `now` must find no
 * delivery of the same key (id, occurrence, and the row's incarnation: a swept id starts over)
 * that may still run, i.e. one that has not answered, of the live generation, whose lease the
 * clock never passed (a lease the clock passed has ended, even if the clock went back since).
 */
export function checkOverlap(model: Model, claim: Claim, epoch: number, incarnation: number, now: number): void {
  const latest = Math.max(model.latestClock, now)
  for (const other of model.inFlight) {
    if (
      other.epoch === epoch &&
      other.id === claim.id &&
      other.occurrence === claim.occurrence &&
      other.incarnation === incarnation &&
      other.claimUntil > latest
    )
      model.fail(
        "overlap",
        `${claim.id} occurrence ${claim.occurrence} claimed at ${now} (attempt ${claim.attempts}) while attempt ${other.attempts} of the same key may still run, its lease until ${other.claimUntil}`,
      )
  }
}
