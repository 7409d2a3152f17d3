import { jsonObjects } from "./json-chunks.ts"
import { CLAIM_TEXT, CLAIM_TEXT_AT, type ClaimEntry, claimMember } from "./slot-claim.ts"

/** A slot won: the lease row's last recorded run and folded hour, as the claim answered them. */
export interface ClaimWon {
  won: true
  lastRunSlot: number | null
  hourStart: number | null
}

/** A slot refused; `held` when an earlier slot's run still holds the lease (its slot and holder). */
export interface ClaimRefused {
  won: false
  held?: { slot: number; holder: string }
}

export type ClaimAnswer = ClaimWon | ClaimRefused

const HELD_TEXT = "select name, last_slot, holder from jobs_leases where name in (select key from json_each(?))"

interface Waiting {
  entry: ClaimEntry
  resolve: (answer: ClaimAnswer) => void
  reject: (error: unknown) => void
}

/**
 * The claims asked in one turn of the event loop, made as one D1 query (ARCHITECTURE.md, "The heartbeat"):
 * the claim statement of slot-claim.ts for all of them, cut where its JSON would pass D1's string limit
 * (json-chunks.ts; the statements of one query share a D1 batch). A job asked twice in a turn (a queue batch holding two of
 * its slots) is asked again in a second query once the first answered. Claims refused are looked up in one
 * more query, only when there are some, to tell a lease an earlier run still holds from a slot already taken.
 */
export class ClaimBatch {
  private waiting: Waiting[] = []
  private readonly d1: D1Database
  private readonly now: (() => number) | undefined

  /** `now` stands in for the database's clock, as RunDeps.now does. */
  constructor(d1: D1Database, now?: () => number) {
    this.d1 = d1
    this.now = now
  }

  /** The claim of `entry`, made with the others asked in this turn. */
  claim(entry: ClaimEntry): Promise<ClaimAnswer> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setTimeout(() => void this.flush(), 0)
      this.waiting.push({ entry, resolve, reject })
    })
  }

  private async flush(): Promise<void> {
    let rest = this.waiting
    this.waiting = []
    while (rest.length > 0) {
      const names = new Set<string>()
      const round: Waiting[] = []
      const later: Waiting[] = []
      for (const waiting of rest) {
        if (names.has(waiting.entry.name)) later.push(waiting)
        else {
          names.add(waiting.entry.name)
          round.push(waiting)
        }
      }
      await this.claimRound(round)
      rest = later
    }
  }

  private async claimRound(round: readonly Waiting[]): Promise<void> {
    let rows: Map<string, { last_run_slot: number | null; hour_start: number | null }>
    try {
      rows = await this.claimAll(round.map((waiting) => waiting.entry))
    } catch (error) {
      for (const waiting of round) waiting.reject(error)
      return
    }
    const refused = round.filter((waiting) => !rows.has(waiting.entry.name))
    const held = refused.length > 0 ? await this.heldOf(refused.map((waiting) => waiting.entry)) : new Map()
    for (const { entry, resolve } of round) {
      const row = rows.get(entry.name)
      if (row) resolve({ won: true, lastRunSlot: row.last_run_slot ?? null, hourStart: row.hour_start ?? null })
      else {
        const holder = held.get(entry.name)
        resolve(holder ? { won: false, held: holder } : { won: false })
      }
    }
  }

  private async claimAll(entries: readonly ClaimEntry[]) {
    const now = this.now?.()
    const statements = chunksOf(entries).map((json) =>
      now === undefined ? this.d1.prepare(CLAIM_TEXT).bind(json) : this.d1.prepare(CLAIM_TEXT_AT).bind(now, json),
    )
    const results =
      statements.length === 1 ? [await (statements[0] as D1PreparedStatement).all()] : await this.d1.batch(statements)
    const rows = new Map<string, { last_run_slot: number | null; hour_start: number | null }>()
    for (const result of results) {
      for (const row of result.results as Array<{
        name: string
        last_run_slot: number | null
        hour_start: number | null
      }>)
        rows.set(row.name, row)
    }
    return rows
  }

  /** The refused claims whose lease an earlier slot's run holds; a lookup that fails tells nothing (they stay refused). */
  private async heldOf(entries: readonly ClaimEntry[]): Promise<Map<string, { slot: number; holder: string }>> {
    const held = new Map<string, { slot: number; holder: string }>()
    try {
      const names = JSON.stringify(Object.fromEntries(entries.map((entry) => [entry.name, 1])))
      const { results } = await this.d1.prepare(HELD_TEXT).bind(names).all<{
        name: string
        last_slot: number
        holder: string | null
      }>()
      const slots = new Map(entries.map((entry) => [entry.name, entry.slot]))
      for (const row of results) {
        const slot = Number(row.last_slot)
        if (row.holder !== null && slot < (slots.get(row.name) ?? 0)) held.set(row.name, { slot, holder: row.holder })
      }
    } catch {
      // A lookup that failed tells nothing: the claims stay refused, as the claim answered.
    }
    return held
  }
}

/** The claim JSON of `entries`, cut where D1's string limit requires (json-chunks.ts). */
const chunksOf = (entries: readonly ClaimEntry[]): string[] =>
  jsonObjects(
    entries.map(({ name, slot, leaseMs, holder }) => `${JSON.stringify(name)}:${claimMember(slot, leaseMs, holder)}`),
  )
