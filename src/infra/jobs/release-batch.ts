import { TIMED_OUT, within } from "../deadline.ts"
import { describeError } from "../log.ts"
import { type RunRelease, releaseStatements, runReleases } from "./slot-release.ts"

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
  /**
   * How many batches this invocation may send at most (the D1 queries it has left for releases). Once only one
   * is left, releases wait for every run still out, however long (each is bounded by its timeout), and go together.
   */
  maxBatches?: number
  /** The sweep's clock. */
  now?: () => number
}

/**
 * Releases of the runs of one invocation (a heartbeat, a queue batch), group-committed (ARCHITECTURE.md, "The
 * heartbeat"): a release waits up to the window for the others, then all pending go as one D1 batch (one
 * query); when every run opened has asked, they go at once. At most `maxBatches` batches are sent. A batch
 * that fails or passes its deadline answers each of its runs with the error: never retried.
 */
export class ReleaseBatch {
  private pending: Pending[] = []
  private open = 0
  private sent = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly options: Required<ReleaseBatchOptions>

  private readonly d1: D1Database

  constructor(d1: D1Database, options: ReleaseBatchOptions) {
    this.d1 = d1
    this.options = { windowMs: RELEASE_WINDOW_MS, maxBatches: Number.POSITIVE_INFINITY, now: Date.now, ...options }
  }

  /** A run that won its claim: it will release, or close without. */
  opened(): void {
    this.open++
  }

  /** Ends the run's lease and records it, with the releases pending in the window. */
  release(release: RunRelease): Promise<ReleaseAnswer> {
    return new Promise((resolve) => {
      this.open--
      this.pending.push({ release, resolve })
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.pending.length === 0) return
    if (this.open <= 0) {
      // Next turn, so that a run ending at the same time still joins.
      if (this.timer !== undefined) clearTimeout(this.timer)
      this.timer = setTimeout(() => (this.open <= 0 ? void this.send() : this.wait()), 0)
      return
    }
    if (this.timer === undefined) this.wait()
  }

  /** The window, unless this invocation has one batch left: that one waits for every run still out. */
  private wait(): void {
    this.timer = undefined
    if (this.sent < this.options.maxBatches - 1) this.timer = setTimeout(() => void this.send(), this.options.windowMs)
  }

  private async send(): Promise<void> {
    this.timer = undefined
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return
    this.sent++
    let answer: Set<string> | string
    try {
      const statements = releaseStatements(
        batch.map((pending) => pending.release),
        this.options.now(),
      )
      const released = await within(runReleases(this.d1, statements), this.options.deadlineMs)
      answer = released === TIMED_OUT ? `no answer within ${this.options.deadlineMs} ms` : released
    } catch (error) {
      answer = describeError(error)
    }
    for (const { release, resolve } of batch) {
      resolve(typeof answer === "string" ? { error: answer } : { released: answer.has(release.name) })
    }
  }
}
