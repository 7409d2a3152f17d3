import { TIMED_OUT, within } from "../../deadline.ts"
import { describeError } from "../../log.ts"
import { type RunRelease, releaseStatements, runReleases, type SlotSkip } from "./slot-release.ts"

/**
 * The group-commit window: a release waits at most this long for others to share its D1 batch. Runs still
 * out when every other run has ended are not waited for: the last release goes at once (next turn).
 */
export const RELEASE_WINDOW_MS = 50

/** How a release ended: `released` false when another holder has the lease; `error` when its batch failed or had no answer in time. */
export type ReleaseAnswer = { released: boolean } | { error: string }

interface Pending {
  release: RunRelease
  resolve: (answer: ReleaseAnswer) => void
}

export interface ReleaseBatchOptions {
  /** How long a batch waits for D1 (the runs' D1 deadline). */
  deadlineMs: number
  /** The group-commit window (default RELEASE_WINDOW_MS). */
  windowMs?: number
  /** The sweep's clock. */
  now?: () => number
}

/**
 * Releases of the runs of one invocation (a heartbeat, a queue batch), group-committed (ARCHITECTURE.md, "The
 * heartbeat"): a release waits up to the window for the others, then all pending go as one D1 batch (one
 * query); when every run opened has asked, they go at once. Skipped slots' history entries (and a late claim's
 * lease) ride in the same batches. A batch never waits for unrelated runs past the window: each run keeps the
 * queries its own release needs (query-budget.ts, keep), so no batch has to wait to share one. A batch that fails or passes its deadline answers
 * each of its runs with the error: never retried.
 */
export class ReleaseBatch {
  private pending: Pending[] = []
  private skips: Array<{ skip: SlotSkip; done: () => void }> = []
  private open = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly options: Required<ReleaseBatchOptions>

  private readonly d1: D1Database

  constructor(d1: D1Database, options: ReleaseBatchOptions) {
    this.d1 = d1
    this.options = { windowMs: RELEASE_WINDOW_MS, now: Date.now, ...options }
  }

  /** A run that won its claim (or a claim whose answer is still out): it will release, or close without. */
  opened(): void {
    this.open++
  }

  /** A run opened that will not release after all (a late claim that did not win). */
  closed(): void {
    this.open--
    this.flush()
  }

  /** Ends the run's lease and records it, with the releases pending in the window. */
  release(release: RunRelease): Promise<ReleaseAnswer> {
    return new Promise((resolve) => {
      this.open--
      this.pending.push({ release, resolve })
      this.flush()
    })
  }

  /**
   * Writes a skipped slot's history entry (and ends a late claim's lease, `opened` when it was counted as a run
   * opened) with the next batch; settles once that batch has answered, whatever it answered.
   */
  skip(skip: SlotSkip, opened = false, ride = false): Promise<void> {
    return new Promise((done) => {
      if (opened) this.open--
      this.skips.push({ skip, done })
      // Riding: it waits for the next batch that goes for the runs, or for flush().
      if (!ride) this.flush()
    })
  }

  /** Sends what waits (skipped slots riding with the runs' releases) by the usual rules, once no run is left to carry it. */
  flush(): void {
    if (this.pending.length === 0 && this.skips.length === 0) return
    if (this.open <= 0) {
      // Next turn, so that a run ending at the same time still joins.
      if (this.timer !== undefined) clearTimeout(this.timer)
      this.timer = setTimeout(() => (this.open <= 0 ? void this.send() : this.wait()), 0)
      return
    }
    if (this.timer === undefined) this.wait()
  }

  /** The group-commit window, then what waits goes. */
  private wait(): void {
    this.timer = setTimeout(() => void this.send(), this.options.windowMs)
  }

  private async send(): Promise<void> {
    this.timer = undefined
    const batch = this.pending
    const skips = this.skips
    this.pending = []
    this.skips = []
    if (batch.length === 0 && skips.length === 0) return
    let answer: Set<string> | string
    try {
      const statements = releaseStatements(
        batch.map((pending) => pending.release),
        this.options.now(),
        skips.map((pending) => pending.skip),
      )
      const released = await within(runReleases(this.d1, statements), this.options.deadlineMs)
      answer = released === TIMED_OUT ? `no answer within ${this.options.deadlineMs} ms` : released
    } catch (error) {
      answer = describeError(error)
    }
    for (const { release, resolve } of batch) {
      resolve(typeof answer === "string" ? { error: answer } : { released: answer.has(release.name) })
    }
    for (const { done } of skips) done()
    // What arrived while this batch was out goes by the same rules.
    this.flush()
  }
}
