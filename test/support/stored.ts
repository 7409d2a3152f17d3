/**
 * A stream's storage read the way its promises are stated, independently of the stream's own code:
 * a row with the claim a batch record lays over it (ARCHITECTURE.md, "Deliveries: the claim"), and
 * the events each row (and each removed schedule) carries.
 */

/** A stored row, with a batch's claim laid over it while that claim came after the row's last write. */
export type StoredRowColumns = Record<string, SqlStorageValue> & {
  id: string
  next_at: number
  retry_at: number | null
  claim_until: number | null
  written_seq: number
}

export interface StoredEvent {
  seq: number
  at: number
  schedule_id: string
  type: string
  data: Record<string, unknown>
}

/** Where the rows are read: a stream's SqlStorage, or (the simulator) its exec before any fault is injected. */
export type Reader = Pick<SqlStorage, "exec">

interface ClaimOver {
  seq: number
  at: number
  index: number
  attempt: number
  until: number
}

/** Each row id's newest claim in the `claims` records. */
function newestClaims(sql: Reader): Map<string, ClaimOver> {
  const newest = new Map<string, ClaimOver>()
  for (const record of sql.exec<{ seq: number; at: number; entries: string }>("SELECT seq, at, entries FROM claims")) {
    const entries = JSON.parse(record.entries) as Array<[string, number, number]>
    entries.forEach(([id, attempt, until], index) => {
      const other = newest.get(id)
      if (!other || other.seq < record.seq) newest.set(id, { seq: record.seq, at: record.at, index, attempt, until })
    })
  }
  return newest
}

/**
 * Every row as the stream holds it, by id: a claim recorded after the row was last written stands for
 * the row's claim columns (its token, lease and attempt), as a claim written on the row would.
 */
export function storedRows(sql: Reader): StoredRowColumns[] {
  const claims = newestClaims(sql)
  return sql
    .exec<StoredRowColumns>("SELECT * FROM schedules ORDER BY id")
    .toArray()
    .map((row) => {
      const claim = claims.get(row.id)
      if (!claim || claim.seq <= row.written_seq) return { ...row }
      return {
        ...row,
        claim_token: `${claim.seq}.${claim.index}`,
        claim_until: claim.until,
        attempts: claim.attempt,
        updated_at: claim.at,
        eligible_at: Math.max(row.next_at, row.retry_at ?? 0, claim.until),
      }
    })
}

/** Every event the stream holds (its rows' and its removed schedules'), by seq. */
export function storedEvents(sql: Reader): StoredEvent[] {
  const stored = [
    ...sql.exec<{ id: string; lines: string }>("SELECT id, event_lines AS lines FROM schedules"),
    ...sql.exec<{ id: string; lines: string }>("SELECT schedule_id AS id, event_lines AS lines FROM removed"),
  ]
  return stored
    .flatMap(({ id, lines }) => (lines === "" ? [] : lines.split("\n").map((line) => eventOfLine(id, line))))
    .sort((a, b) => a.seq - b.seq)
}

/** Each timing kind's value names, in order, as a short set line holds them. */
const TIMING_VALUES: Record<string, string[]> = {
  at: ["atMs"],
  after: ["afterMs"],
  every: ["everyMs"],
  cron: ["cron", "timezone"],
}

/**
 * One stored line: `[seq, at, type, data]`, a delivery's short form ("f": fired; event-line.ts), or a set
 * event's ("s": `[seq, at, "s", cause, consumer, [kind, ...values], occurrence, nextAt - at, rest?]`, an
 * `at` timing's instant as its distance from `at`; set-line.ts).
 */
function eventOfLine(id: string, line: string): StoredEvent {
  const [seq, at, kind, ...rest] = JSON.parse(line) as [number, number, string, ...unknown[]]
  const event = (type: string, data: Record<string, unknown>) => ({ seq, at, schedule_id: id, type, data })
  if (kind === "s") {
    const [cause, consumer, [timingKind, ...values], occurrence, nextIn, more] = rest as [
      string,
      string,
      [string, ...unknown[]],
      number,
      number,
      Record<string, unknown>?,
    ]
    const timing = Object.fromEntries([
      ["kind", timingKind],
      ...(TIMING_VALUES[timingKind] ?? []).map((name, i) => [
        name,
        name === "atMs" ? at + (values[i] as number) : values[i],
      ]),
    ])
    return event("schedule/set", { cause, consumer, timing, occurrence, nextAt: at + nextIn, ...more })
  }
  if (kind === "f") {
    const [occurrence, attempt, lateByMs, nextIn, completed] = rest as number[]
    const state = completed ? "completed" : "scheduled"
    return event("schedule/fired", { occurrence, attempt, lateByMs, nextAt: at + (nextIn as number), state })
  }
  return event(kind, rest[0] as Record<string, unknown>)
}
