import { entryText, HOUR_MS, type HourEntry, type SkipReason } from "../contract/hour-entry.ts"
import { RUN_HISTORY_LENGTH, type RunRecord } from "../contract/record.ts"
import { member } from "./slot-claim.ts"

/** How long a job's hourly history is kept: rows are bounded by jobs x 24 x 30. */
export const RUN_HOURS_KEPT_MS = 30 * 24 * HOUR_MS
/** Hours past the window deleted at most for each hour a release flushes (each flush adds one). */
export const RUN_HOURS_SWEPT = 4
/** A slot is claimed once and an hour has 60: more entries than this are never appended. */
const ENTRIES_MAX = 60

/** One run's release: the holder that ends its lease, how it ended, and the hour its lease row folds (if known). */
export interface RunRelease {
  name: string
  holder: string
  record: RunRecord
  /** The run's ctx.report summary, JSON text, or null. */
  summary: string | null
  /**
   * The lease row's hour_start as the run's claim answered it (null: none yet); undefined when not known,
   * so the release flushes whatever the row holds.
   */
  hourStart?: number | null
  /** Runs recorded before this one by a release that writes no hour (0.1.0's), as the claim answered them: folded now. */
  earlier?: readonly HourEntry[]
}

/**
 * A due slot that no run of this invocation recorded, skipped with its reason: its hour gets a skipped entry.
 * With `holder`, the lease its claim took (a claim that answered too late) is ended too, guarded by it.
 */
export interface SlotSkip {
  name: string
  slot: number
  reason: SkipReason
  holder?: string
}

/** A statement as D1's prepare and bind take it. */
export interface BoundText {
  text: string
  values: unknown[]
}

// The release's values, numbered (one text on D1, SQLite and PostgreSQL, which types a value by its cast).
const NAME = "?1"
const HOLDER = "cast(?2 as text)"
const SLOT = "cast(?3 as bigint)"
const HOUR = "cast(?4 as bigint)"
/** The release's guard: the run's holder still holds the lease, or an operator released it (no holder, no later slot). */
const HELD = `(holder = ${HOLDER} or (holder is null and last_slot = ${SLOT}))`

const history = "coalesce(run_history, '[]')"
const entries = `((length(${history}) - length(replace(${history}, '{"', ''))) / 2)`
// instr is SQLite's and strpos Postgres': the first separator is found by a recursive walk both run.
const firstSeparator = `(with recursive scan(at) as (select 1 union all select at + 1 from scan
    where at < length(${history}) and substr(${history}, at, 4) <> '},{"') select max(at) from scan)`
const kept = `(case when ${entries} < ${RUN_HISTORY_LENGTH} then ${history}
    else '[' || substr(${history}, ${firstSeparator} + 2) end)`
const ENTRY = "cast(?10 as text)"
const HOUR_ENTRY = "cast(?11 as text)"
const ENTRY_MS = "cast(?12 as bigint)"
const hourEntries = (runs: string) => `(length(${runs}) - length(replace(${runs}, ',', '')) + 1)`
const counted = (letter: string) => `(length(hour_runs) - length(replace(hour_runs, ':${letter}:', ''))) / 3`

/**
 * ARCHITECTURE.md, "A slot's claim and release": one run's release, one SQL text on D1, SQLite and
 * Postgres; an invocation's releases go as one D1 batch of it (one query, one row read and one written a
 * run: by its primary key, with no RETURNING). The lease is ended only if the run's holder still holds it
 * (or an operator released it and no later slot was claimed); `last_slot` stays, and `lease_ms` goes with
 * the lease (a later claim by 0.1.0, which never writes it, leaves it null, never another run's). The same write records
 * the run: the last_* columns, the run appended to run_history (its newest RUN_HISTORY_LENGTH kept, oldest
 * first: entries are flat JSON objects and a `"` inside a JSON string is always escaped, so `{"` opens an
 * entry and `},{"` separates two), and the run folded into the row's hour (hour_runs, hour_max_ms): a run
 * of a later hour starts it afresh, once FLUSH_TEXT, before it in the batch, has copied the hour it ends to
 * jobs_run_hours. Its values: releaseValues.
 */
export const RELEASE_TEXT = `update jobs_leases set
  lease_until = null, lease_ms = null, holder = null,
  last_run_slot = ${SLOT}, last_run_id = ${HOLDER}, last_outcome = cast(?5 as text), last_ms = cast(?6 as bigint),
  last_finished_at = cast(?7 as bigint), last_error = cast(?8 as text), last_summary = cast(?9 as text),
  run_history = (case when ${kept} = '[]' then '[' || ${ENTRY} || ']'
    else substr(${kept}, 1, length(${kept}) - 1) || ',' || ${ENTRY} || ']' end),
  hour_start = ${HOUR},
  hour_runs = (case when hour_start = ${HOUR} then (case when ${hourEntries("hour_runs")} >= ${ENTRIES_MAX}
      then hour_runs else hour_runs || ',' || ${HOUR_ENTRY} end)
    else ${HOUR_ENTRY} end),
  hour_max_ms = (case when hour_start = ${HOUR} and hour_max_ms >= ${ENTRY_MS} then hour_max_ms else ${ENTRY_MS} end)
where name = ${NAME} and ${HELD}`

/** An hour row written onto one of the same hour: counts summed, the max kept, entries appended (at most ENTRIES_MAX). */
const ADDED = `on conflict (job, hour) do update set
  ran = jobs_run_hours.ran + excluded.ran, failed = jobs_run_hours.failed + excluded.failed,
  timed_out = jobs_run_hours.timed_out + excluded.timed_out, skipped = jobs_run_hours.skipped + excluded.skipped,
  max_ms = case when excluded.max_ms > jobs_run_hours.max_ms then excluded.max_ms else jobs_run_hours.max_ms end,
  runs = case when ${hourEntries("jobs_run_hours.runs")} >= ${ENTRIES_MAX} then jobs_run_hours.runs
    else jobs_run_hours.runs || ',' || excluded.runs end`

/**
 * The hour a run's release ends, copied to jobs_run_hours (ARCHITECTURE.md, "History"): its lease row's
 * folded hour, when earlier than its run's and the release may write it. An hour a release before migration
 * 0009 wrote there already is added to (counts summed, the max kept, entries appended). The conflict target
 * unqualified, as PostgreSQL requires. The first FLUSH_VALUES of RELEASE_TEXT's values.
 */
export const FLUSH_TEXT = `insert into jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs)
select name, hour_start, ${counted("r")}, ${counted("f")}, ${counted("t")}, ${counted("s")},
  coalesce(hour_max_ms, 0), hour_runs
from jobs_leases
where name = ${NAME} and hour_start is not null and hour_runs is not null and hour_start <> ${HOUR} and ${HELD}
${ADDED}`

/** FLUSH_TEXT's values: the name, the holder, the slot and its hour. */
const FLUSH_VALUES = 4

/**
 * Entries added to their hour row in jobs_run_hours directly (an upsert, ADDED): a skipped slot's, or runs a
 * release that writes no hour recorded (0.1.0's). The reader folds the lease row's hour in, so its current hour
 * may be written here too. Values: hourValues, one entry a statement.
 */
export const HOUR_ADD_TEXT = `insert into jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs)
values (?1, cast(?2 as bigint), cast(?3 as integer), cast(?4 as integer), cast(?5 as integer), cast(?6 as integer),
  cast(?7 as bigint), cast(?8 as text))
${ADDED}`

/** HOUR_ADD_TEXT's values for one entry of job `name`. */
function hourValues(name: string, entry: HourEntry): unknown[] {
  const one = (outcome: HourEntry["outcome"]) => (entry.outcome === outcome ? 1 : 0)
  const ms = one("skipped") ? 0 : Math.round(entry.ms)
  return [name, hourOf(entry.slot), one("ran"), one("failed"), one("timed-out"), one("skipped"), ms, entryText(entry)]
}

/**
 * Late claims' leases ended, each if its holder still holds it (`last_slot` stays): all of a batch's in one
 * statement, whatever their number. Its value: a JSON object `{ name: { h: holder } }`.
 */
export const END_LEASE_TEXT = `update jobs_leases set lease_until = null, lease_ms = null, holder = null
where exists (select 1 from json_each(?) as job
  where cast(job.key as text) = jobs_leases.name and ${member("h", "text")} = jobs_leases.holder)`

/** The oldest few hours past RUN_HOURS_KEPT_MS, deleted through the hour index: `?` the cutoff, `?` how many. */
export const SWEEP_TEXT = `delete from jobs_run_hours where (job, hour) in
  (select job, hour from jobs_run_hours where hour < ? order by hour limit ?)`

const hourOf = (slot: number) => slot - (slot % HOUR_MS)

/** RELEASE_TEXT's and FLUSH_TEXT's values for one run. */
export function releaseValues({ name, holder, record, summary, earlier = [] }: RunRelease): unknown[] {
  const ms = Math.round(record.ms)
  const entry = JSON.stringify(record)
  const { slot, outcome, finishedAt, error } = record
  // Runs of its hour that a release writing no hour recorded are folded with it, before it.
  const folded = [...earlier.filter((run) => hourOf(run.slot) === hourOf(slot)), { slot, outcome, ms }]
  const hourEntry = folded.map(entryText).join(",")
  const maxMs = Math.max(...folded.map((run) => Math.round(run.ms)))
  return [name, holder, slot, hourOf(slot), outcome, ms, finishedAt, error, summary, entry, hourEntry, maxMs]
}

/** True when the run's release ends the hour its lease row folds (or that is not known). */
type Cost = Pick<RunRelease, "hourStart" | "earlier"> & { record: Pick<RunRecord, "slot"> }
const flushes = ({ hourStart, record }: Cost) =>
  hourStart === undefined || (hourStart !== null && hourStart !== hourOf(record.slot))

/** The statements a run's release adds to its batch at most: its own, its flush, its earlier runs of other hours, a sweep. */
export function releaseCost(release: Cost): number {
  const hour = hourOf(release.record.slot)
  const ending = (release.earlier ?? []).filter((run) => hourOf(run.slot) !== hour).length + (flushes(release) ? 1 : 0)
  return 1 + ending + (ending > 0 ? 1 : 0)
}

/**
 * The statements one batch runs for `releases` and `skips`: the late claims' leases ended (one statement, whatever
 * their number), each run's release (and, only for a run that ends its lease row's hour, its flush before it), the
 * skipped slots' entries, then one sweep of as many hours past 30 days. `now` is the sweep's clock.
 */
export function releaseStatements(
  releases: readonly RunRelease[],
  now: number,
  skips: readonly SlotSkip[] = [],
): BoundText[] {
  const statements: BoundText[] = []
  const late: Record<string, { h: string }> = {}
  for (const { name, holder } of skips) if (holder !== undefined) late[name] = { h: holder }
  if (Object.keys(late).length) statements.push({ text: END_LEASE_TEXT, values: [JSON.stringify(late)] })
  let ending = 0
  const add = (name: string, entry: HourEntry) => {
    ending++
    statements.push({ text: HOUR_ADD_TEXT, values: hourValues(name, entry) })
  }
  for (const release of releases) {
    const hour = hourOf(release.record.slot)
    // Those of other hours, one statement each (a rollout's few).
    for (const run of release.earlier ?? []) if (hourOf(run.slot) !== hour) add(release.name, run)
    const values = releaseValues(release)
    if (flushes(release)) {
      ending++
      statements.push({ text: FLUSH_TEXT, values: values.slice(0, FLUSH_VALUES) })
    }
    statements.push({ text: RELEASE_TEXT, values })
  }
  for (const { name, slot, reason } of skips) add(name, { slot, outcome: "skipped", ms: 0, reason })
  if (ending > 0) statements.push({ text: SWEEP_TEXT, values: [now - RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT * ending] })
  return statements
}

/**
 * Runs `statements` as one D1 batch (one query), each text prepared once; answers the names whose lease a
 * release statement ended (it changed their row).
 */
export async function runReleases(d1: D1Database, statements: readonly BoundText[]): Promise<Set<string>> {
  const prepared = new Map<string, D1PreparedStatement>()
  const bound = statements.map(({ text, values }) => {
    let statement = prepared.get(text)
    if (statement === undefined) {
      statement = d1.prepare(text)
      prepared.set(text, statement)
    }
    return statement.bind(...values)
  })
  const results = await d1.batch(bound)
  const released = new Set<string>()
  statements.forEach((statement, i) => {
    if (statement.text === RELEASE_TEXT && (results[i]?.meta.changes ?? 0) > 0)
      released.add(statement.values[0] as string)
  })
  return released
}
