/**
 * What the consumers (slotwise) and the callbacks (agents) saw, per run. The test, the stream and
 * the agent share one isolate in the test runtime, so this module's state is the same for all.
 */

/** The attempts a flaky consumer or callback fails before it succeeds, on both systems. */
export const FAILURES_BEFORE_SUCCESS = 2

/** What both systems carry as a schedule's payload: the run it belongs to and its index. */
export interface Mark {
  run: string
  i: number
}

export interface Seen {
  i: number
  /** Date.now() as the consumer or callback starts. */
  startedAt: number
  /** The occurrence's due time as the system hands it over, in ms. */
  dueAt: number
  /** The due time to the millisecond, where the system rounds the one it hands over (agents: whole seconds). */
  exactDueAt: number
  /** Whether this attempt succeeded. */
  ok: boolean
}

export class Run {
  readonly seen: Seen[] = []
  /** Successful deliveries per schedule index. */
  readonly delivered = new Map<number, number>()
  private readonly attempts = new Map<number, number>()

  /** Counts an attempt for schedule `i` and answers its number (1 for the first). */
  attempt(i: number): number {
    const n = (this.attempts.get(i) ?? 0) + 1
    this.attempts.set(i, n)
    return n
  }

  add(seen: Seen): void {
    this.seen.push(seen)
    if (seen.ok) this.delivered.set(seen.i, (this.delivered.get(seen.i) ?? 0) + 1)
  }

  /** How many distinct schedules were delivered at least once. */
  get distinct(): number {
    return this.delivered.size
  }

  get successes(): Seen[] {
    return this.seen.filter((s) => s.ok)
  }
}

const runs = new Map<string, Run>()

export function run(name: string): Run {
  let found = runs.get(name)
  if (!found) {
    found = new Run()
    runs.set(name, found)
  }
  return found
}

/** Forgets a run's records once its figures are taken. */
export function forget(name: string): void {
  runs.delete(name)
}

/** The payload as a Mark; anything else reaching a bench consumer or callback is a harness bug. */
export function markOf(payload: unknown): Mark {
  const p = payload as Mark | null
  if (typeof p === "object" && p !== null && typeof p.run === "string" && typeof p.i === "number") return p
  throw new Error(`bench: unexpected payload ${JSON.stringify(payload)}`)
}
