import { type SQL, sql } from "drizzle-orm"
import { LEASE_MARGIN_MS, MAX_TIMEOUT_MS } from "../contract/definition.ts"

/**
 * How far past the database's clock a slot may lie and still be claimed: a claimant whose clock runs
 * ahead of the database's (or a database whose clock runs behind the claimant's) by at most this much
 * runs its slots, at most this early; by more, its slots are refused as not yet due.
 */
export const CLOCK_TOLERANCE_MS = 10_000

export interface SlotClaimRequest {
  name: string
  slot: number
  leaseMs: number
  holder: string
  /**
   * The database's clock as a test stands it in (epoch ms). Unset, as in production, the claim reads
   * the database's own clock (DATABASE_NOW); the claimant's clock only ever names the slot.
   */
  now?: number
}

/** One job's part of a batched claim: `name` is the JSON object's key, so a name appears once a statement. */
export type ClaimEntry = Omit<SlotClaimRequest, "now">

/**
 * The lease a row without `lease_ms` is judged by: the longest a job can have (a 15-minute timeout + 1
 * minute). Such a lease was written by a claim from before `lease_ms` (0.1.0's, which a gradual deployment
 * runs beside this one, and which never writes it: the release clears it with the lease, so 0.1.0's lease
 * never carries another run's); migration 0007 gives its older rows the same value. So a lease ending more
 * than 32 minutes past the database's now is reclaimed, and one within is held until it ends.
 */
export const UNKNOWN_LEASE_MS = MAX_TIMEOUT_MS + LEASE_MARGIN_MS

/**
 * The database's clock in epoch milliseconds, one value per statement: SQLite's own function on D1 and
 * libSQL; on PostgreSQL, the function of the same name and meaning the twin of migration 0007 creates
 * (statement_timestamp()). The same text on all three.
 */
const DATABASE_NOW_TEXT = "cast(round(unixepoch('now', 'subsec') * 1000) as bigint)"
export const DATABASE_NOW: SQL = sql.raw(DATABASE_NOW_TEXT)

/**
 * The lease row's last recorded run is not in its folded hour: a release that writes no hour (0.1.0's, which a
 * gradual deployment runs beside this one) recorded it. Then the claim answers the run history and the folded
 * hour, so that this run's release folds those runs too (ARCHITECTURE.md, "History"); otherwise nothing more.
 */
const UNFOLDED = `last_run_slot is not null and (hour_start is null or hour_runs is null
    or last_run_slot - last_run_slot % 3600000 <> hour_start
    or (',' || hour_runs) not like ('%,' || cast(last_run_slot % 3600000 / 60000 as text) || ':%'))`

/**
 * The lease row's unreleased slots once this claim takes the lease: a holder that never released it (its run's
 * release failed, or never came) had its slot won, so that slot is kept, newest first, within UNRELEASED_CHARS
 * (about 20 slots; a number the cut shortens can never equal a whole slot's). An operator's release that clears a
 * holder keeps its slot the same way (lease.ts, forceRelease): the next claim then finds no holder.
 */
export const UNRELEASED_CHARS = 300
export const UNRELEASED = `case when jobs_leases.holder is null then jobs_leases.unreleased_slots
    else substr(cast(jobs_leases.last_slot as text) || coalesce(',' || jobs_leases.unreleased_slots, ''), 1, ${UNRELEASED_CHARS}) end`

/** A member of a claim entry's JSON, as SQL: json_extract is SQLite's, and the twin of migration 0009 PostgreSQL's. */
export const member = (key: string, type: "bigint" | "text") => `cast(json_extract(job.value, '$.${key}') as ${type})`

/**
 * ARCHITECTURE.md, "A slot's claim and release", written once: the claim of any number of jobs' slots as
 * one SQL text that D1, SQLite (libSQL) and Postgres run unchanged, only the placeholders numbered by each
 * driver. Its one parameter (two with a test's clock) is a JSON object `{ name: { s: slot, l: leaseMs, h:
 * holder } }`, read by json_each, so any number of jobs stays within D1's 100 bound parameters. Each row
 * back names a job whose `holder` now owns the slot, with the lease row's last recorded run and its folded
 * hour (what the release needs). Every time in it is the database's: a slot more than CLOCK_TOLERANCE_MS
 * past the database's now is not yet due and is refused, first claim included, so no claimant's clock can
 * move `last_slot` ahead of the database's; `last_slot < slot` stops a retried or late fire; the lease is
 * written as the database's now + lease, with its length (`lease_ms`) beside it, and `lease_until < now`
 * stops overlap whatever lease the claimant has. A lease ending more than twice its own length past now
 * (the database's clock went back since it was written) is reclaimed: it is judged by what its holder
 * wrote, never by the claimant's timeout (a row without one, by UNKNOWN_LEASE_MS). `last_slot` never goes
 * down, so no slot is claimed twice. Epoch-ms columns must be 64-bit (SQLite's INTEGER is; on Postgres, BIGINT); values are cast, as
 * Postgres types those of an INSERT … SELECT as text otherwise.
 */
const claimText = (clock: string) => `insert into jobs_leases (name, last_slot, lease_until, lease_ms, holder)
select claim.name, claim.slot, claim.now_ms + claim.lease_ms, claim.lease_ms, claim.holder
from (select cast(job.key as text) as name, ${member("s", "bigint")} as slot, ${member("l", "bigint")} as lease_ms,
        ${member("h", "text")} as holder, ${clock} as now_ms
      from json_each(?) as job) as claim
where claim.slot <= claim.now_ms + ${CLOCK_TOLERANCE_MS}
on conflict (name) do update
  set last_slot = excluded.last_slot, lease_until = excluded.lease_until, lease_ms = excluded.lease_ms,
      holder = excluded.holder, unreleased_slots = ${UNRELEASED}
  where jobs_leases.last_slot < excluded.last_slot
    and (jobs_leases.lease_until is null or jobs_leases.lease_until < excluded.lease_until - excluded.lease_ms
         or jobs_leases.lease_until > excluded.lease_until - excluded.lease_ms
                                      + 2 * coalesce(jobs_leases.lease_ms, ${UNKNOWN_LEASE_MS}))
returning name, last_run_slot, hour_start,
  case when ${UNFOLDED} then run_history end as unfolded_history, case when ${UNFOLDED} then hour_runs end as unfolded_hour`

/** The claim's text on the database's clock (one `?`, the JSON), and with a test's clock (`?` for now, then `?` for the JSON). */
export const CLAIM_TEXT = claimText(DATABASE_NOW_TEXT)
export const CLAIM_TEXT_AT = claimText("cast(? as bigint)")

/** One job's value in the claim's JSON parameter, under its name: its slot, lease and holder. */
export const claimMember = (slot: number, leaseMs: number, holder: string) =>
  `{"s":${slot},"l":${leaseMs},"h":${JSON.stringify(holder)}}`

/** The claim's JSON parameter: each entry's member under its job's name (a name given twice keeps its last). */
export function claimJson(entries: readonly ClaimEntry[]): string {
  const jobs: Record<string, unknown> = {}
  for (const { name, slot, leaseMs, holder } of entries) jobs[name] = { s: slot, l: leaseMs, h: holder }
  return JSON.stringify(jobs)
}

/** A text with `?` placeholders and its values as one drizzle SQL (for a drizzle client, or a dialect to print). */
export function boundSql(text: string, values: readonly unknown[]): SQL {
  const parts = text.split("?")
  return sql.join(
    parts.flatMap((part, i) => (i < values.length ? [sql.raw(part), sql`${values[i]}`] : [sql.raw(part)])),
  )
}

/**
 * The claim of `entries` (names unique) as one statement, its clock the database's or the test's `now`.
 * One SQL text on D1, SQLite and Postgres; each row back is a slot won.
 *
 * @example
 * ```ts
 * const won = (await sqliteDb.all(slotClaimsStatement([claim]))).length === 1   // D1, libSQL
 * const won = (await pgDb.execute(slotClaimsStatement([claim]))).rows.length === 1 // Postgres
 * ```
 */
export const slotClaimsStatement = (entries: readonly ClaimEntry[], now?: number): SQL =>
  now === undefined ? boundSql(CLAIM_TEXT, [claimJson(entries)]) : boundSql(CLAIM_TEXT_AT, [now, claimJson(entries)])

/** One job's claim: the batched statement with one entry. */
export const slotClaimStatement = ({ now, ...entry }: SlotClaimRequest): SQL => slotClaimsStatement([entry], now)
