import type { Row } from "./rows.ts"
import type { Settlement } from "./settlement.ts"
import type { Step } from "./steps.ts"

/** A fault planted in the stream's storage, to prove the specification notices (spec.test.ts). */
export type Plant = "skip-point" | "double-delivery" | "past-end"

/**
 * Plants `kind` once, after the step that gives it a chance, straight into storage: "skip-point" moves a recurring
 * row just delivered one point further on its cadence, "double-delivery" puts it back on the occurrence it just
 * delivered, "past-end" drops the window's end of a schedule just upserted with one. True once planted.
 */
export function plant(
  kind: Plant,
  step: Step,
  settlements: readonly Settlement[],
  rows: Map<string, Row>,
  exec: SqlStorage["exec"],
): boolean {
  if (kind === "past-end") {
    const row = step.op === "upsert" && step.endAt !== undefined ? rows.get(step.id) : undefined
    if (row?.state !== "scheduled" || row.end_at === null) return false
    exec("UPDATE schedules SET end_at = NULL WHERE id = ?", row.id).toArray()
    return true
  }
  const fired = settlements.find(
    (s) => s.wrote && s.result.status === "delivered" && s.after?.state === "scheduled" && s.after.kind === "every",
  )
  const [before, after] = [fired?.before, fired && rows.get(fired.claim.id)]
  if (!before || after?.state !== "scheduled" || after.occurrence !== before.occurrence + 1) return false
  if (kind === "skip-point") {
    const every = after.interval_ms as number
    exec(
      "UPDATE schedules SET cadence_at = cadence_at + ?, next_at = next_at + ? WHERE id = ?",
      every,
      every,
      after.id,
    ).toArray()
  } else {
    exec(
      "UPDATE schedules SET occurrence = ?, cadence_at = ?, next_at = ?, delivered = ? WHERE id = ?",
      before.occurrence,
      before.cadence_at,
      before.next_at,
      before.delivered,
      after.id,
    ).toArray()
  }
  return true
}
