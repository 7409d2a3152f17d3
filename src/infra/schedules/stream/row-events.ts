import { EVENTS_PER_SCHEDULE, type ScheduleEvent } from "../contract/schedule-events.ts"
import { eventOf } from "./event-line.ts"

export { lineOf } from "./event-line.ts"

/**
 * A schedule's events ride on its own row (docs/benchmarks.md, "Every row a delivery writes"): the `event_lines`
 * column holds its newest EVENTS_PER_SCHEDULE events, oldest first, one JSON array a line (event-line.ts;
 * JSON text never holds a raw newline). The transition that writes the row writes its events with it, so
 * an event costs no row of its own.
 */

/** The event lines `stored` with `lines` appended, keeping the newest EVENTS_PER_SCHEDULE. */
export function appended(stored: string, lines: readonly string[]): string {
  let text = stored === "" ? lines.join("\n") : `${stored}\n${lines.join("\n")}`
  let count = 1
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++
  for (; count > EVENTS_PER_SCHEDULE; count--) text = text.slice(text.indexOf("\n") + 1)
  return text
}

/** The events of schedule `scheduleId` in its event lines, oldest first. */
export function eventsIn(scheduleId: string, lines: string): ScheduleEvent[] {
  if (lines === "") return []
  return lines.split("\n").map((line) => eventOf(scheduleId, line))
}

/** Seqs are reserved this many at a time: one meta write per object life (or per million events). */
export const SEQ_BLOCK = 1_000_000
export const SEQ_META_KEY = "event_seq"

/**
 * The stream's event numbers: increasing across every schedule, never reused. A block is reserved in
 * meta inside the transaction that first needs it, so a rolled-back transaction (forget) reserves again.
 */
export class EventSeqs {
  private next: number | undefined
  private reserved = 0

  constructor(
    private readonly meta: {
      get(key: string): string | undefined
      set(key: string, value: string): void
    },
  ) {}

  /** `count` consecutive seqs; call inside the transaction that writes their events. */
  take(count: number): number {
    if (this.next === undefined) {
      this.reserved = Number(this.meta.get(SEQ_META_KEY) ?? 0)
      this.next = this.reserved + 1
    }
    const first = this.next
    this.next += count
    if (this.next - 1 > this.reserved) {
      this.reserved = this.next - 1 + SEQ_BLOCK
      this.meta.set(SEQ_META_KEY, String(this.reserved))
    }
    return first
  }

  /** After a rolled-back transaction: the reservation is read again. */
  forget(): void {
    this.next = undefined
  }
}
