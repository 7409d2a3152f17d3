import type { ScheduleState } from "../contract/states.ts"
import type { ScheduleRow } from "./row.ts"

/** A row as SQLite stores it: the schedule, its events (row-events.ts) and the newest claim number when written (ledger.ts). */
export interface StoredRow extends ScheduleRow {
  /** Absent from a light read (due batches, lists), which never needs it. */
  eventLines?: string
  eventSeq: number | null
  writtenSeq: number
}

export type Field = Exclude<keyof StoredRow, "id">

/** Every stored field but the id, in column order (at most 31: store.ts keeps a row's changed fields as one number's bits); the event lines last, so a light read is the same list without them. */
export const FIELDS = [
  "consumer",
  "kind",
  "atMs",
  "intervalMs",
  "cron",
  "timezone",
  "payload",
  "maxAttempts",
  "state",
  "occurrence",
  "nextAt",
  "cadenceAt",
  "retryAt",
  "claimUntil",
  "claimToken",
  "attempts",
  "lastError",
  "createdAt",
  "updatedAt",
  "finishedAt",
  "incarnation",
  "startAt",
  "endAt",
  "times",
  "delivered",
  "jitterMs",
  "cancelReason",
  "backfillOf",
  "eventSeq",
  "writtenSeq",
  "eventLines",
] as const satisfies readonly Field[]
// Every field is listed: a field of StoredRow missing above fails to compile here.
const listed: Field extends (typeof FIELDS)[number] ? true : never = true
void listed

/** A field's column: its name in snake case (atMs is at_ms). */
const COLUMN_OF = (field: Field) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
export const FULL = `id, ${FIELDS.map(COLUMN_OF).join(", ")}`
export const LIGHT = `id, ${FIELDS.slice(0, -1).map(COLUMN_OF).join(", ")}`

// An upsert of the whole row; created_at is kept from the first insert.
export const PUT = `INSERT INTO schedules (${FULL}) VALUES (?, ${FIELDS.map(() => "?").join(", ")})
  ON CONFLICT (id) DO UPDATE SET ${FIELDS.filter((field) => field !== "createdAt")
    .map((field) => `${COLUMN_OF(field)} = excluded.${COLUMN_OF(field)}`)
    .join(", ")}`

export const pointUpdate = (fields: readonly Field[]) =>
  `UPDATE schedules SET ${fields.map((field) => `${COLUMN_OF(field)} = ?`).join(", ")} WHERE id = ?`

export const valuesUpdate = (fields: readonly Field[], rows: number) =>
  `UPDATE schedules SET ${fields.map((field, i) => `${COLUMN_OF(field)} = v.column${i + 2}`).join(", ")}
   FROM (VALUES ${Array.from({ length: rows }, () => `(${["?", ...fields.map(() => "?")].join(", ")})`).join(", ")}) AS v
   WHERE schedules.id = v.column1`

// A literal over FULL's order, not a loop over FIELDS: it runs for every row a tick reads, twice per delivery (a loop
// made each row an object of its own shape and cost 10 µs a delivery).
export function rowOf(v: SqlStorageValue[]): StoredRow {
  const row: StoredRow = {
    id: v[0] as string,
    consumer: v[1] as string,
    kind: v[2] as ScheduleRow["kind"],
    atMs: v[3] as number | null,
    intervalMs: v[4] as number | null,
    cron: v[5] as string | null,
    timezone: v[6] as string | null,
    payload: v[7] as string,
    maxAttempts: v[8] as number | null,
    state: v[9] as ScheduleState,
    occurrence: v[10] as number,
    nextAt: v[11] as number,
    cadenceAt: v[12] as number,
    retryAt: v[13] as number | null,
    claimUntil: v[14] as number | null,
    claimToken: v[15] as string | null,
    attempts: v[16] as number,
    lastError: v[17] as string | null,
    createdAt: v[18] as number,
    updatedAt: v[19] as number,
    finishedAt: v[20] as number | null,
    incarnation: v[21] as number | null,
    startAt: v[22] as number | null,
    endAt: v[23] as number | null,
    times: v[24] as number | null,
    delivered: v[25] as number,
    jitterMs: v[26] as number | null,
    cancelReason: v[27] as string | null,
    backfillOf: v[28] as string | null,
    eventSeq: v[29] as number | null,
    writtenSeq: v[30] as number,
  }
  if (v.length > 31) row.eventLines = v[31] as string
  return row
}
