import { chunks, type Exec, MAX_BINDINGS } from "./bindings.ts"

/**
 * Where retention finds finished rows without a scan (retention.ts): one journal row per finish time
 * a transaction wrote, listing the ids that finished then (keyed by that time and its first id), so
 * a settlement that completes 32 one-shots writes one journal row, not an index entry each. Every
 * listed row is finished at exactly its entry's time: a row that leaves that state (resumed,
 * restarted, cancelled again, removed) leaves its entry too, so a sweep never finds nothing to do.
 */
export class FinishJournal {
  /** The earliest finish time (null: none), kept across calls; undefined until read. */
  private earliest: number | null | undefined

  constructor(private readonly exec: Exec) {}

  /** Records `ids` as finished at `at`; call inside the transaction that finishes them. */
  add(at: number, ids: readonly string[]): void {
    this.exec(
      `INSERT INTO finished (at, tag, ids) VALUES (?, ?, ?)
       ON CONFLICT (at, tag) DO UPDATE SET ids = ids || char(10) || excluded.ids`,
      at,
      ids[0] as string,
      ids.join("\n"),
    )
    if (this.earliest !== undefined) this.earliest = Math.min(at, this.earliest ?? at)
  }

  /** Takes `id` out of the entry of the time it finished at; call inside the transaction that changes it. */
  drop(at: number, id: string): void {
    for (const entry of this.exec<{ tag: string; ids: string }>("SELECT tag, ids FROM finished WHERE at = ?", at)) {
      const ids = entry.ids.split("\n")
      const kept = ids.filter((each) => each !== id)
      if (kept.length === ids.length) continue
      this.rewrite(at, entry.tag, kept)
      return
    }
  }

  /** The earliest finish time of a finished row (null: none), read once. */
  first(): number | null {
    if (this.earliest === undefined) {
      const [row] = this.exec<{ at: number }>("SELECT at FROM finished ORDER BY at, tag LIMIT 1")
      this.earliest = row?.at ?? null
    }
    return this.earliest
  }

  /**
   * Deletes at most `limit` rows that finished at or before `before`, oldest first, and their journal
   * entries (an entry only partly swept keeps the rest); answers the ids deleted.
   */
  sweep(before: number, limit: number): string[] {
    const gone: string[] = []
    const entries = this.exec<{ at: number; tag: string; ids: string }>(
      "SELECT at, tag, ids FROM finished WHERE at <= ? ORDER BY at, tag LIMIT ?",
      before,
      limit,
    )
    for (const { at, tag, ids } of entries) {
      const listed = ids.split("\n")
      const taken = listed.slice(0, limit - gone.length)
      this.rewrite(at, tag, listed.slice(taken.length))
      for (const part of chunks(taken, MAX_BINDINGS - 1)) {
        // The finish time is checked again: a listed row is deleted only as the journal says it is.
        const deleted = this.exec<{ id: string }>(
          `DELETE FROM schedules WHERE finished_at = ? AND id IN (${part.map(() => "?").join(", ")}) RETURNING id`,
          at,
          ...part,
        )
        for (const { id } of deleted) gone.push(id)
      }
      if (gone.length >= limit) break
    }
    return gone
  }

  /** A rolled-back transaction may have changed the journal: its earliest time is read again. */
  forget(): void {
    this.earliest = undefined
  }

  /** The entry (at, tag) listing `ids` now; deleted when none is left. */
  private rewrite(at: number, tag: string, ids: readonly string[]): void {
    if (ids.length > 0) this.exec("UPDATE finished SET ids = ? WHERE at = ? AND tag = ?", ids.join("\n"), at, tag)
    else {
      this.exec("DELETE FROM finished WHERE at = ? AND tag = ?", at, tag)
      this.earliest = undefined
    }
  }
}
