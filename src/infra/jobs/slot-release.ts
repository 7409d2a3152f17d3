import { entryText, HOUR_MS } from "./hour-entry.ts"
import { jsonObjects } from "./json-chunks.ts"
import { RUN_HISTORY_LENGTH, type RunRecord } from "./record.ts"

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
}

/** A statement as D1's prepare and bind take it. */
export interface BoundText {
  text: string
  values: unknown[]
}

const run = (key: string, type: "bigint" | "text") => `cast(json_extract(run.value, '$.${key}') as ${type})`
const HOUR = run("hr", "bigint")
/** The release's guard: the run's holder still holds the lease, or an operator released it (no holder, no later slot). */
const HELD = `(jobs_leases.holder = ${run("h", "text")}
    or (jobs_leases.holder is null and jobs_leases.last_slot = ${run("s", "bigint")}))`

const history = "coalesce(jobs_leases.run_history, '[]')"
const entries = `((length(${history}) - length(replace(${history}, '{"', ''))) / 2)`
// instr is SQLite's and strpos Postgres': the first separator is found by a recursive walk both run.
const firstSeparator = `(with recursive scan(at) as (select 1 union all select at + 1 from scan
    where at < length(${history}) and substr(${history}, at, 4) <> '},{"') select max(at) from scan)`
const kept = `(case when ${entries} < ${RUN_HISTORY_LENGTH} then ${history}
    else '[' || substr(${history}, ${firstSeparator} + 2) end)`
const entry = run("r", "text")
const hourEntries = (runs: string) => `(length(${runs}) - length(replace(${runs}, ',', '')) + 1)`
const sameHour = `jobs_leases.hour_start = ${HOUR}`
const counted = (letter: string) =>
  `(length(jobs_leases.hour_runs) - length(replace(jobs_leases.hour_runs, ':${letter}:', ''))) / 3`

/**
 * ARCHITECTURE.md, "A slot's claim and release": any number of runs' releases as one UPDATE … FROM
 * json_each, one SQL text on D1, SQLite and Postgres. Its one parameter is a JSON object keyed by job
 * (releaseJson). Each lease is ended only if the run's holder still holds it (or an operator released it
 * and no later slot was claimed); `last_slot` stays. The same write records the run: the last_* columns,
 * the run appended to run_history (its newest RUN_HISTORY_LENGTH kept, oldest first: entries are flat JSON
 * objects and a `"` inside a JSON string is always escaped, so `{"` opens an entry and `},{"` separates
 * two), and the run folded into the row's hour (hour_runs, hour_max_ms): a run of a later hour starts it
 * afresh, once FLUSH_TEXT, in the same batch before it, has copied the hour it ends to jobs_run_hours.
 * One row written a run. Each row back names a lease released.
 */
export const RELEASE_TEXT = `update jobs_leases set
  lease_until = null, holder = null,
  last_run_slot = ${run("s", "bigint")}, last_run_id = ${run("h", "text")}, last_outcome = ${run("o", "text")},
  last_ms = ${run("ms", "bigint")}, last_finished_at = ${run("f", "bigint")}, last_error = ${run("e", "text")},
  last_summary = ${run("m", "text")},
  run_history = (case when ${kept} = '[]' then '[' || ${entry} || ']'
    else substr(${kept}, 1, length(${kept}) - 1) || ',' || ${entry} || ']' end),
  hour_start = ${HOUR},
  hour_runs = (case when ${sameHour} then (case when ${hourEntries("jobs_leases.hour_runs")} >= ${ENTRIES_MAX}
      then jobs_leases.hour_runs else jobs_leases.hour_runs || ',' || ${run("x", "text")} end)
    else ${run("x", "text")} end),
  hour_max_ms = (case when ${sameHour} and jobs_leases.hour_max_ms >= ${run("hm", "bigint")}
    then jobs_leases.hour_max_ms else ${run("hm", "bigint")} end)
from json_each(?) as run
where jobs_leases.name = run.key and ${HELD}
returning name`

/**
 * The hours the releases of RELEASE_TEXT's parameter end, copied to jobs_run_hours (ARCHITECTURE.md,
 * "History"): a lease row folding an earlier hour than its run's, for a run that may release it. An hour a
 * release before migration 0009 wrote there already is added to (counts summed, the max kept, entries
 * appended). The conflict target unqualified, as PostgreSQL requires.
 */
export const FLUSH_TEXT = `insert into jobs_run_hours (job, hour, ran, failed, timed_out, skipped, max_ms, runs)
select jobs_leases.name, jobs_leases.hour_start, ${counted("r")}, ${counted("f")}, ${counted("t")}, ${counted("s")},
  coalesce(jobs_leases.hour_max_ms, 0), jobs_leases.hour_runs
from jobs_leases join json_each(?) as run on jobs_leases.name = run.key
where jobs_leases.hour_start is not null and jobs_leases.hour_runs is not null
  and jobs_leases.hour_start <> ${HOUR} and ${HELD}
on conflict (job, hour) do update set
  ran = jobs_run_hours.ran + excluded.ran, failed = jobs_run_hours.failed + excluded.failed,
  timed_out = jobs_run_hours.timed_out + excluded.timed_out, skipped = jobs_run_hours.skipped + excluded.skipped,
  max_ms = case when excluded.max_ms > jobs_run_hours.max_ms then excluded.max_ms else jobs_run_hours.max_ms end,
  runs = case when ${hourEntries("jobs_run_hours.runs")} >= ${ENTRIES_MAX} then jobs_run_hours.runs
    else jobs_run_hours.runs || ',' || excluded.runs end`

/** The oldest few hours past RUN_HOURS_KEPT_MS, deleted through the hour index: `?` the cutoff, `?` how many. */
export const SWEEP_TEXT = `delete from jobs_run_hours where (job, hour) in
  (select job, hour from jobs_run_hours where hour < ? order by hour limit ?)`

const hourOf = (slot: number) => slot - (slot % HOUR_MS)

/** One run's member of the release JSON, as text. */
function memberOf({ holder, record, summary }: RunRelease): string {
  const ms = Math.round(record.ms)
  return JSON.stringify({
    h: holder,
    s: record.slot,
    o: record.outcome,
    ms,
    f: record.finishedAt,
    e: record.error,
    m: summary,
    r: JSON.stringify(record),
    hr: hourOf(record.slot),
    x: entryText({ slot: record.slot, outcome: record.outcome, ms }),
    hm: ms,
  })
}

/** True when the run's release ends the hour its lease row folds (or that is not known). */
const flushes = ({ hourStart, record }: RunRelease) =>
  hourStart === undefined || (hourStart !== null && hourStart !== hourOf(record.slot))

/**
 * The statements one batch runs for `releases` (one run a job): the flush of the hours they end and the
 * sweep of as many hours past 30 days, only when one ends its hour, around the release itself, its JSON
 * cut where D1's string limit requires (json-chunks.ts). `now` is the sweep's clock.
 */
export function releaseStatements(releases: readonly RunRelease[], now: number): BoundText[] {
  const jsons = jsonObjects(releases.map((release) => `${JSON.stringify(release.name)}:${memberOf(release)}`))
  const ending = releases.filter(flushes).length
  const updates = jsons.map((json) => ({ text: RELEASE_TEXT, values: [json] }))
  if (ending === 0) return updates
  return [
    ...jsons.map((json) => ({ text: FLUSH_TEXT, values: [json] })),
    ...updates,
    { text: SWEEP_TEXT, values: [now - RUN_HOURS_KEPT_MS, RUN_HOURS_SWEPT * ending] },
  ]
}

/** Runs `statements` as one D1 batch (one query); answers the names each release statement gave back. */
export async function runReleases(d1: D1Database, statements: readonly BoundText[]): Promise<Set<string>> {
  const results = await d1.batch(statements.map(({ text, values }) => d1.prepare(text).bind(...values)))
  const released = new Set<string>()
  statements.forEach((statement, i) => {
    if (statement.text !== RELEASE_TEXT) return
    for (const row of (results[i]?.results ?? []) as Array<{ name: string }>) released.add(row.name)
  })
  return released
}
