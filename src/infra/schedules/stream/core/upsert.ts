import type { EventDraft } from "../../contract/schedule-events.ts"
import { type ScheduleSpec, sameSpec, sameWhen } from "../../contract/spec.ts"
import { type ScheduleRow, specOf, timingColumns } from "../row.ts"
import { finish, firstDue, placed } from "./cadence.ts"
import { withdrawn } from "./hold.ts"
import { clearedAttempt, none, type Transition, unclaimed } from "./transition.ts"

/**
 * Idempotent upsert: the same definition changes nothing; a new timing, window or jitter recomputes next_at.
 * A created row takes `incarnation` (drawn by the caller, fresh each time); an existing row keeps its own,
 * and its count of delivered occurrences: an upsert whose `times` it already reached completes it.
 */
export function upsert(
  existing: ScheduleRow | undefined,
  spec: ScheduleSpec,
  now: number,
  incarnation: number,
  stream = "",
): Transition {
  const columns = {
    consumer: spec.consumer,
    payload: spec.payload,
    maxAttempts: spec.maxAttempts,
    ...timingColumns(spec.timing),
    startAt: spec.startAt,
    endAt: spec.endAt,
    times: spec.times,
    jitterMs: spec.jitterMs,
  }
  const setEvent = (row: ScheduleRow, cause: string): EventDraft => ({
    type: "schedule/set",
    scheduleId: row.id,
    data: {
      cause,
      consumer: row.consumer,
      timing: spec.timing,
      occurrence: row.occurrence,
      nextAt: row.nextAt,
      ...rulesOf(spec),
      ...(row.state === "completed" ? { state: "completed", delivered: row.delivered } : {}),
    },
  })
  const due = () => firstDue(spec.timing, now, spec.startAt)
  if (!existing) {
    const created: ScheduleRow = {
      id: spec.id,
      ...columns,
      state: "scheduled",
      occurrence: 1,
      nextAt: 0,
      cadenceAt: 0,
      retryAt: null,
      ...unclaimed,
      attempts: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      incarnation,
      delivered: 0,
      cancelReason: null,
      backfillOf: null,
    }
    const row = placed(created, due(), now, stream)
    return { row, events: [setEvent(row, "created")] }
  }
  const counted = spec.times !== null && existing.delivered >= spec.times
  if (existing.state !== "scheduled") {
    const restarted = placed(
      {
        ...existing,
        ...columns,
        state: "scheduled",
        // A delivered one-shot starts a new occurrence, so its key is not deduped away.
        occurrence: existing.state === "completed" ? existing.occurrence + 1 : existing.occurrence,
        ...clearedAttempt,
        ...withdrawn(existing, now),
        updatedAt: now,
        finishedAt: null,
        cancelReason: null,
      },
      due(),
      now,
      stream,
    )
    if (restarted.state === "scheduled") return { row: restarted, events: [setEvent(restarted, "restarted")] }
    // Over at once (its count reached, its window ended): it stays where it was, or completes, as it is.
    if (existing.state === "completed" && sameSpec(specOf(existing), spec)) return none(existing)
    const finishedAt = existing.state === "completed" ? existing.finishedAt : now
    const row = { ...finish({ ...existing, ...columns, updatedAt: now, cancelReason: null }, now), finishedAt }
    return { row, events: [setEvent(row, "completed")] }
  }
  if (sameSpec(specOf(existing), spec)) return none(existing)
  if (counted) {
    const row = finish({ ...existing, ...columns, updatedAt: now }, now)
    return { row, events: [setEvent(row, "completed")] }
  }
  if (sameWhen(specOf(existing), spec)) {
    // The timing stays as first written: another spelling of it is no change.
    const row = {
      ...existing,
      consumer: spec.consumer,
      payload: spec.payload,
      maxAttempts: spec.maxAttempts,
      times: spec.times,
      updatedAt: now,
    }
    return { row, events: [setEvent(row, "updated")] }
  }
  // The occurrence counter stays. At a new due time it starts afresh, and an in-flight delivery
  // cannot settle (next_at no longer matches); at the same due time its attempts stand, and an
  // in-flight delivery settles under the new timing.
  const moved = placed({ ...existing, ...columns, updatedAt: now }, due(), now, stream)
  const row: ScheduleRow =
    moved.state === "completed" ? moved : { ...moved, ...(moved.nextAt === existing.nextAt ? {} : clearedAttempt) }
  return { row, events: [setEvent(row, row.state === "completed" ? "completed" : "retimed")] }
}

/** A spec's window, count and jitter as an event records them: only those set. */
function rulesOf(spec: ScheduleSpec): Record<string, number> {
  const rules: Record<string, number> = {}
  if (spec.startAt !== null) rules.startAt = spec.startAt
  if (spec.endAt !== null) rules.endAt = spec.endAt
  if (spec.times !== null) rules.times = spec.times
  if (spec.jitterMs !== null) rules.jitterMs = spec.jitterMs
  return rules
}
