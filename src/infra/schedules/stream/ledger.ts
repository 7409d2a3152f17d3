import { chunks, type Exec, MAX_BINDINGS } from "./bindings.ts"
import type { ScheduleRow } from "./row.ts"

/** One row claimed by a batch: its attempt number and the end of its lease. */
export interface ClaimEntry {
  id: string
  attempt: number
  until: number
}

interface ClaimRecord {
  slot: number
  /** The claim number, increasing across the stream's life: a row written after it no longer carries it. */
  seq: number
  at: number
  /** How many of its entries still lie over their rows. */
  live: number
}

interface Live extends ClaimEntry {
  record: ClaimRecord
  index: number
}

/** The token of a batch's `index`-th claim: unique in the stream, since claim numbers never repeat. */
export const tokenOf = (seq: number, index: number) => `${seq}.${index}`

/**
 * A batch's claims as one record (ARCHITECTURE.md, "Deliveries: the claim"): the claim of up to 32 rows
 * is a single row of the `claims` table, written before any of them is dispatched, instead of a write to
 * each row and its due-index entry. A claimed row is read as stored with its claim laid over it (token,
 * lease, attempt), as if the claim had written it, until the row is next written: that write carries
 * the claim's fields onto the row itself (settled, withdrawn, or kept), and `written_seq` records the
 * newest claim number then, so the record no longer speaks for that row. Records are few (one per batch
 * in flight, or lost in a crash until its rows are claimed again or written), read once per object
 * life, and a record whose rows all moved on is overwritten by the next batch: no record is deleted,
 * so claim numbers only grow.
 */
export class ClaimLedger {
  private loaded = false
  private maxSeq = 0
  private records: ClaimRecord[] = []
  /** Each claimed row's newest claim, while it lies over the row. */
  private readonly current = new Map<string, Live>()

  constructor(private readonly exec: Exec) {}

  /** The newest claim number: a row written now records it, so no earlier claim lies over it. */
  get seq(): number {
    this.load()
    return this.maxSeq
  }

  /** How many rows a claim lies over: how far past its limit a due query must read. */
  get size(): number {
    this.load()
    return this.current.size
  }

  /** `row` as the stream sees it: with its newest claim over it, when that claim came after the row's last write. */
  overlay(row: ScheduleRow, writtenSeq: number): ScheduleRow {
    this.load()
    const live = this.current.get(row.id)
    if (live === undefined || live.record.seq <= writtenSeq) return row
    return {
      ...row,
      claimToken: tokenOf(live.record.seq, live.index),
      claimUntil: live.until,
      attempts: live.attempt,
      updatedAt: live.record.at,
    }
  }

  /** The claim number the next batch gets, for its tokens. */
  next(): number {
    return this.seq + 1
  }

  /** Writes the batch's record (one row); call inside the claim's transaction, with `seq` from next(). */
  open(seq: number, at: number, entries: readonly ClaimEntry[]): void {
    this.load()
    if (entries.length === 0) return
    const free = this.records.findIndex((record) => record.live === 0)
    const record: ClaimRecord = { slot: free === -1 ? this.records.length : free, seq, at, live: entries.length }
    this.exec(
      `INSERT INTO claims (slot, seq, at, entries) VALUES (?, ?, ?, ?)
       ON CONFLICT (slot) DO UPDATE SET seq = excluded.seq, at = excluded.at, entries = excluded.entries`,
      record.slot,
      seq,
      at,
      JSON.stringify(entries.map(({ id, attempt, until }) => [id, attempt, until])),
    )
    this.records[record.slot] = record
    this.maxSeq = seq
    entries.forEach((entry, index) => {
      this.release(entry.id)
      this.current.set(entry.id, { ...entry, record, index })
    })
  }

  /** The row `id` was written (or deleted): its claim, if one lay over it, now lives on the row or is gone. */
  release(id: string): void {
    const live = this.current.get(id)
    if (live === undefined) return
    this.current.delete(id)
    live.record.live--
  }

  /** After a rolled-back transaction: the records are read again. */
  forget(): void {
    this.loaded = false
  }

  /** Reads every record and keeps each row's newest claim that came after the row's last write. */
  private load(): void {
    if (this.loaded) return
    this.records = []
    this.current.clear()
    this.maxSeq = 0
    const stored = this.exec<{ slot: number; seq: number; at: number; entries: string }>(
      "SELECT slot, seq, at, entries FROM claims",
    )
    for (const { slot, seq, at, entries } of stored) {
      const record: ClaimRecord = { slot, seq, at, live: 0 }
      this.records[slot] = record
      this.maxSeq = Math.max(this.maxSeq, seq)
      ;(JSON.parse(entries) as Array<[string, number, number]>).forEach(([id, attempt, until], index) => {
        const other = this.current.get(id)
        if (other === undefined || other.record.seq < seq) this.current.set(id, { id, attempt, until, record, index })
      })
    }
    // A slot never written is free too.
    for (let slot = 0; slot < this.records.length; slot++) this.records[slot] ??= { slot, seq: 0, at: 0, live: 0 }
    for (const part of chunks([...this.current.keys()], MAX_BINDINGS)) {
      const written = new Map(
        this.exec<{ id: string; written_seq: number }>(
          `SELECT id, written_seq FROM schedules WHERE id IN (${part.map(() => "?").join(", ")})`,
          ...part,
        ).map(({ id, written_seq }) => [id, written_seq]),
      )
      for (const id of part) {
        const live = this.current.get(id) as Live
        const writtenSeq = written.get(id)
        if (writtenSeq === undefined || writtenSeq >= live.record.seq) this.current.delete(id)
        else live.record.live++
      }
    }
    // Only once every read went through: a storage error midway leaves it to be read again.
    this.loaded = true
  }
}
