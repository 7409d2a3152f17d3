import { logLine } from "../../log.ts"
import { redactUrlSecrets } from "../../url-secrets.ts"
import * as core from "./core/index.ts"
import { type Tally, tallyOf } from "./rollup.ts"
import type { ScheduleRow } from "./row.ts"
import type { FenceRow } from "./seams.ts"
import type { ScheduleStore } from "./store.ts"

/** An attempt's result, waiting to be settled at `now`. */
export interface Answer {
  claim: core.Claim
  result: core.DeliveryResult
  now: number
}

/**
 * The settlement (ARCHITECTURE.md, "Deliveries") of answers that came in together, in one transaction: one read of
 * their rows, then each fence checked on its own (state, token, unexpired lease, occurrence, due
 * time), each row advanced as stored now (an upsert while the claim was out may have changed its
 * timing or rules). Only the changed columns are written, rows changing the same columns in one
 * statement, each event on its row, the batch's count in the stream's history in one row (rollup-store.ts).
 * A stale answer writes nothing and emits nothing, and never holds
 * back the others; a storage error rolls the whole group back. The answers name distinct schedules.
 * Once committed, the batch's tally goes to `measure` (the metrics), if given.
 */
export function settleAll(
  store: ScheduleStore,
  stream: string,
  given: readonly Answer[],
  fenceRow: FenceRow = (row) => row,
  measure?: (tally: Tally) => void,
): core.Transition[] {
  // Before the transaction: a malformed result is a retry of its own row, never a rollback of the group.
  const answers = given.map((answer) => ({ ...answer, result: normalised(answer.result) }))
  let tally: Tally | undefined
  const transitions = store.transaction(() => {
    const rows = store.getMany(answers.map(({ claim }) => claim.id))
    const writes: Array<{ before: ScheduleRow; change: core.Change; now: number }> = []
    const settled = answers.map(({ claim, result, now }) => {
      const row = fenceRow(rows.get(claim.id), claim)
      const transition = core.settle(row, claim, result, now, stream)
      if (core.changed(transition)) writes.push({ before: row as ScheduleRow, change: transition, now })
      return transition
    })
    store.applyAll(writes)
    tally = tallyOf(answers, settled)
    store.rollup.add(tally)
    return settled
  })
  if (tally && measure) measure(tally)
  for (const [i, answer] of answers.entries()) logUnlessDelivered(stream, answer, transitions[i] as core.Transition)
  return transitions
}

/** A delivery is counted in its tick's one line (and its schedule/fired event); anything else gets a line of its own. */
function logUnlessDelivered(stream: string, { claim, result }: Answer, transition: core.Transition): void {
  if (result.status === "delivered" && core.changed(transition)) return
  const row = transition.row
  logLine("warn", "schedule.delivery", {
    stream,
    schedule: claim.id,
    occurrence: claim.occurrence,
    attempt: claim.attempts,
    outcome: core.changed(transition) ? result.status : "stale",
    ...(result.status === "delivered" ? {} : { reason: result.reason }),
    ...(row?.state === "scheduled" ? { nextAt: row.nextAt, retryAt: row.retryAt } : { state: row?.state }),
  })
}

interface Waiting {
  answer: Answer
  /** True once the answer's tick yielded: its settlement must then re-arm the alarm itself. */
  late: () => boolean
  settled: (transition: core.Transition) => void
  failed: (error: unknown) => void
}

/**
 * Gathers the answers that arrive together and settles them at once (`write`, settleAll), so that
 * a batch of quick deliveries costs one transaction, not one each: as soon as no dispatch is left
 * outstanding (`outstanding`), and otherwise at the end of the event loop's turn. When any of
 * them came after its tick yielded, the alarm is re-armed once for the group.
 */
export class Settlements {
  private waiting: Waiting[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  /** A look, one microtask on, at whether the answers of this wave still wait for a late one. */
  private looking = false

  constructor(
    private readonly write: (answers: readonly Answer[]) => core.Transition[],
    private readonly rearm: () => Promise<unknown>,
    private readonly outstanding: () => number,
  ) {}

  /** Settles `answer` with the others of its turn; rejects with the storage error that rolled its group back. */
  settle(answer: Answer, late: () => boolean): Promise<core.Transition> {
    return new Promise((settled, failed) => {
      this.waiting.push({ answer, late, settled, failed })
      if (this.outstanding() === 0) queueMicrotask(() => void this.flush())
      else if (!this.looking) {
        this.looking = true
        queueMicrotask(() => this.lookAgain())
      }
    })
  }

  /**
   * A batch's quick answers come in one wave of microtasks, the last of them flushing the group:
   * the end-of-turn timer is set only when, after that wave, a dispatch is still out.
   */
  private lookAgain(): void {
    this.looking = false
    if (this.waiting.length > 0 && this.outstanding() > 0) this.timer ??= setTimeout(() => void this.flush(), 0)
  }

  private async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    const waiting = this.waiting
    this.waiting = []
    if (waiting.length === 0) return
    const outcomes = groups(waiting).flatMap((group) => {
      try {
        const transitions = this.write(group.map(({ answer }) => answer))
        return group.map((each, i) => () => each.settled(transitions[i] as core.Transition))
      } catch (error) {
        return group.map((each) => () => each.failed(error))
      }
    })
    if (waiting.some(({ late }) => late())) await this.rearm()
    for (const outcome of outcomes) outcome()
  }
}

/** Consecutive runs of answers naming distinct schedules: two answers of one schedule are settled in turn. */
function groups(waiting: readonly Waiting[]): Waiting[][] {
  const out: Waiting[][] = []
  let ids = new Set<string>()
  for (const each of waiting) {
    const group = out.at(-1)
    const id = each.answer.claim.id
    if (group && !ids.has(id)) group.push(each)
    else {
      out.push([each])
      ids = new Set()
    }
    ids.add(id)
  }
  return out
}

/**
 * A delivery's result as settlement may write it: a fresh, well-formed copy, with the secrets of any
 * URL in its reason hidden (url-secrets.ts), since a reason reaches events, `last_error`, the log and the
 * dashboard. Anything else (not
 * an object, an unknown status, a reason that is not a string, a lateness that is not a number,
 * fields that throw when read) becomes a retry whose reason says it was malformed, so that one
 * consumer's bad outcome fails its own row and never the transaction of the answers settled with it.
 *
 * @example
 * ```ts
 * normalised({ status: "retry", reason: 42n })
 * // { status: "retry", reason: "malformed outcome: retry with a reason of type bigint" }
 * ```
 */
export function normalised(result: unknown): core.DeliveryResult {
  try {
    if (typeof result !== "object" || result === null) return malformed(`a value of type ${kind(result)}`)
    const { status } = result as { status?: unknown }
    if (status === "delivered") {
      const { lateByMs } = result as { lateByMs?: unknown }
      if (typeof lateByMs === "number" && Number.isFinite(lateByMs) && lateByMs >= 0) return { status, lateByMs }
      return malformed(`delivered with a lateness of type ${kind(lateByMs)}`)
    }
    if (status === "retry" || status === "terminal") {
      const { reason } = result as { reason?: unknown }
      if (typeof reason === "string") return { status, reason: redactUrlSecrets(reason) }
      return malformed(`${status} with a reason of type ${kind(reason)}`)
    }
    return malformed(typeof status === "string" ? `an unknown status "${status.slice(0, 40)}"` : "no status")
  } catch {
    // A getter or a proxy that throws: its fields cannot be read at all.
    return malformed("fields that could not be read")
  }
}

const kind = (value: unknown) => (value === null ? "null" : typeof value)
const malformed = (what: string): core.DeliveryResult => ({
  status: "retry",
  reason: redactUrlSecrets(`malformed outcome: ${what}`),
})
