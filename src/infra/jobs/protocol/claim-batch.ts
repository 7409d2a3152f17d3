import { database } from "../../db/index.ts"
import { entriesOf, HOUR_MS, type HourEntry } from "../contract/hour-entry.ts"
import type { RunRecord } from "../contract/record.ts"
import { jsonObjects } from "./json-chunks.ts"
import { boundSql, CLAIM_TEXT, CLAIM_TEXT_AT, type ClaimEntry, claimMember, member } from "./slot-claim.ts"

/** A slot won: the lease row's last recorded run and folded hour, as the claim answered them. */
export interface ClaimWon {
  won: true
  lastRunSlot: number | null
  hourStart: number | null
  /** Runs recorded since the row's folded hour by a release that writes no hour (0.1.0's): the release folds them. */
  earlier: HourEntry[]
}

/**
 * A slot refused; `held` when an earlier slot's run still holds the lease (its slot and holder); `taken` when a
 * later slot was claimed first and no run recorded this one (a queue message delivered late, or one behind a
 * later slot of its job in a queue batch): no run will have it. Neither: another run has (or had) this slot.
 */
export interface ClaimRefused {
  won: false
  held?: { slot: number; holder: string }
  taken?: { slot: number }
}

export type ClaimAnswer = ClaimWon | ClaimRefused

/**
 * The lease rows of refused claims, a row for each job and hour of them (its value `{ j: name, s }`, the oldest
 * slot refused in that hour): with that hour's entries, to tell a slot whose skip is already said (a second ask of
 * it writes nothing), and, only where a later slot was claimed, the run history, to tell a slot no run had from one
 * another run recorded, or whose claim won too late to run it.
 */
const HELD_TEXT = `select l.name, l.last_slot, l.holder, ${member("s", "bigint")} as s,
  case when l.last_slot > ${member("s", "bigint")} then l.run_history end as run_history,
  case when l.last_slot > ${member("s", "bigint")} then l.unreleased_slots end as unreleased_slots,
  coalesce((select h.runs from jobs_run_hours as h
    where h.job = l.name and h.hour = ${member("s", "bigint")} - ${member("s", "bigint")} % ${HOUR_MS}), '')
    || (case when l.hour_start = ${member("s", "bigint")} - ${member("s", "bigint")} % ${HOUR_MS}
      then coalesce(',' || l.hour_runs, '') else '' end) as hour_runs
from json_each(?) as job join jobs_leases as l on l.name = ${member("j", "text")}`

/** A row the claim statement gives back: a slot won. */
interface ClaimRow {
  name: string
  last_run_slot: number | null
  hour_start: number | null
  /** Only when the last recorded run is not in the folded hour (slot-claim.ts, UNFOLDED). */
  unfolded_history?: string | null
  unfolded_hour?: string | null
}

/** The runs of `row`'s history later than every run its folded hour holds, before `slot`: recorded with no hour. */
function earlierRuns(row: ClaimRow, slot: number): HourEntry[] {
  if (!row.unfolded_history) return []
  const folded = row.hour_start != null && row.unfolded_hour ? entriesOf(Number(row.hour_start), row.unfolded_hour) : []
  const after = Math.max(0, ...folded.map((entry) => entry.slot))
  try {
    return (JSON.parse(row.unfolded_history) as RunRecord[])
      .filter((run) => run.slot > after && run.slot < slot)
      .map(({ slot, outcome, ms }) => ({ slot, outcome, ms }))
  } catch {
    // A history it cannot read folds nothing: those runs stay as they were.
    return []
  }
}

interface Waiting {
  entry: ClaimEntry
  resolve: (answer: ClaimAnswer) => void
  reject: (error: unknown) => void
}

/**
 * The claims asked in one turn of the event loop, made as one D1 query (ARCHITECTURE.md, "The heartbeat"):
 * the claim statement of slot-claim.ts for all of them, cut where its JSON would pass D1's string limit
 * (json-chunks.ts; the statements of one query share a D1 batch). A job asked for several slots in a turn (a
 * queue batch's backlog, a redelivered message) claims only its newest: an older one is refused as taken. Claims
 * refused are looked up in one more query, only when there are some, to tell a lease an earlier run still holds
 * from a slot another run has, and from one a later slot took with no run of its own.
 */
export class ClaimBatch {
  private waiting: Waiting[] = []
  private readonly d1: D1Database
  private readonly now: (() => number) | undefined
  private readonly gather: boolean

  /**
   * `now` stands in for the database's clock, as RunDeps.now does. `gather`: wait a turn for the claims asked
   * with this one (a heartbeat's); without, each claim goes at once (a run alone waits for no one).
   */
  constructor(d1: D1Database, now?: () => number, gather = true) {
    this.d1 = d1
    this.now = now
    this.gather = gather
  }

  /** The claim of `entry`, made with the others asked in this turn. */
  claim(entry: ClaimEntry): Promise<ClaimAnswer> {
    return new Promise((resolve, reject) => {
      const first = this.waiting.length === 0
      this.waiting.push({ entry, resolve, reject })
      if (!this.gather) void this.flush()
      else if (first) setTimeout(() => void this.flush(), 0)
    })
  }

  private async flush(): Promise<void> {
    const all = this.waiting
    this.waiting = []
    // One claim a job: its newest slot (which does what is due as of it); an older slot of it is not claimed,
    // and the same slot twice (a redelivery) is its twin's. So one claim query, whatever the repeats.
    const newest = new Map<string, Waiting>()
    for (const waiting of all) {
      const known = newest.get(waiting.entry.name)
      if (known === undefined || known.entry.slot < waiting.entry.slot) newest.set(waiting.entry.name, waiting)
    }
    const round = [...newest.values()]
    let rows: Map<string, ClaimRow>
    try {
      rows = await this.claimAll(round.map((waiting) => waiting.entry))
    } catch (error) {
      for (const waiting of all) waiting.reject(error)
      return
    }
    const behind = all.filter((waiting) => newest.get(waiting.entry.name) !== waiting)
    const refused = [...round.filter((waiting) => !rows.has(waiting.entry.name)), ...behind]
    const held = refused.length > 0 ? await this.heldOf(refused.map((waiting) => waiting.entry)) : new Map()
    const asked = new Set<string>()
    for (const waiting of all) {
      const { entry, resolve } = waiting
      const top = newest.get(entry.name) as Waiting
      const row = top === waiting ? rows.get(entry.name) : undefined
      const key = `${entry.name}@${entry.slot}`
      const twin = asked.has(key)
      asked.add(key)
      if (row)
        resolve({
          won: true,
          lastRunSlot: row.last_run_slot ?? null,
          hourStart: row.hour_start ?? null,
          earlier: earlierRuns(row, entry.slot),
        })
      // The same slot as its job's claimed one, or an older slot asked twice (a redelivery): its twin says it, once.
      else if (twin || (top !== waiting && top.entry.slot === entry.slot)) resolve({ won: false })
      else resolve(refusal(held.get(heldKey(entry.name, entry.slot)), entry.slot))
    }
  }

  private async claimAll(entries: readonly ClaimEntry[]): Promise<Map<string, ClaimRow>> {
    const now = this.now?.()
    const text = now === undefined ? CLAIM_TEXT : CLAIM_TEXT_AT
    const values = (json: string) => (now === undefined ? [json] : [now, json])
    const chunks = chunksOf(entries)
    // One statement through drizzle, as one claim always has (a run alone's D1 call goes out as soon as before);
    // the chunks of a longer one in one D1 batch.
    const results =
      chunks.length === 1
        ? [await database(this.d1).all<ClaimRow>(boundSql(text, values(chunks[0] as string)))]
        : (await this.d1.batch(chunks.map((json) => this.d1.prepare(text).bind(...values(json))))).map(
            (result) => result.results as ClaimRow[],
          )
    const rows = new Map<string, ClaimRow>()
    for (const result of results) for (const row of result) rows.set(row.name, row)
    return rows
  }

  /** The lease rows of the refused claims; a lookup that fails tells nothing (they stay refused). */
  private async heldOf(entries: readonly ClaimEntry[]): Promise<Map<string, LeaseRow>> {
    const rows = new Map<string, LeaseRow>()
    try {
      // One member a job and hour of its refused slots: its name, and its oldest slot in that hour.
      const oldest: Record<string, { j: string; s: number }> = {}
      for (const { name, slot } of entries) {
        const key = heldKey(name, slot)
        const known = oldest[key]
        if (known === undefined || slot < known.s) oldest[key] = { j: name, s: slot }
      }
      const { results } = await this.d1.prepare(HELD_TEXT).bind(JSON.stringify(oldest)).all<LeaseRow>()
      for (const row of results) rows.set(heldKey(row.name, Number(row.s)), row)
    } catch {
      // A lookup that failed tells nothing: the claims stay refused, as the claim answered.
    }
    return rows
  }
}

/** A refused lease row as the lookup reads it. */
interface LeaseRow {
  name: string
  last_slot: number
  holder: string | null
  /** The slot looked up, and its hour's entries (a stored row's and the lease row's folded ones). */
  s: number
  run_history: string | null
  /** Slots a claim won that no release recorded (slot-claim.ts), newest first, comma-separated. */
  unreleased_slots: string | null
  hour_runs: string | null
}

/** A refused slot's key in the lookup: its job and its hour. */
const heldKey = (name: string, slot: number) => `${slot - (slot % HOUR_MS)} ${name}`

/** Why `slot` was refused, from its lease row: held by an earlier slot's run, taken by a later slot with no run of its own, or another run's. */
function refusal(row: LeaseRow | undefined, slot: number): ClaimRefused {
  if (row === undefined) return { won: false }
  const last = Number(row.last_slot)
  // Any entry of it in its hour: a run's, or its skip already said with its reason (lease held, slot taken by an
  // earlier delivery of this message, ...): the slot has its one line and entry, and a second ask writes nothing.
  const said = entriesOf(slot - (slot % HOUR_MS), row.hour_runs ?? "").some((entry) => entry.slot === slot)
  if (last < slot)
    return row.holder === null || said ? { won: false } : { won: false, held: { slot: last, holder: row.holder } }
  // A run of it recorded (its newest 20 runs), its claim won and never released, or won too late to run it: the
  // slot was another run's.
  if (last === slot || row.run_history?.includes(`{"slot":${slot},`)) return { won: false }
  if (`,${row.unreleased_slots ?? ""},`.includes(`,${slot},`)) return { won: false }
  if (said) return { won: false }
  return { won: false, taken: { slot: last } }
}

/** The claim JSON of `entries`, cut where D1's string limit requires (json-chunks.ts). */
const chunksOf = (entries: readonly ClaimEntry[]): string[] =>
  jsonObjects(
    entries.map(({ name, slot, leaseMs, holder }) => `${JSON.stringify(name)}:${claimMember(slot, leaseMs, holder)}`),
  )
