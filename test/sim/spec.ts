import { parseCron } from "../../src/infra/cron.ts"
import type { Model } from "./model.ts"
import type { SentRules, SentTiming } from "./operations.ts"
import { jitteredAt, keyOf, type Row } from "./rows.ts"
import { type Step, stored } from "./steps.ts"

/**
 * The stream's specification: from each schedule's definition as it was sent (never as stored) and the timeline of
 * claims and answers, which occurrence must be delivered next, under which key, no earlier than when, and which
 * cadence points may be coalesced, and why. DESIGN.md's rules, restated as plainly as they can be:
 * - an occurrence sits on its timing's cadence (`every` from its first point, a cron in its zone), inside the window
 *   [startAt, endAt], and while fewer than `times` were delivered;
 * - it is due at its cadence point plus its key's offset (below the jitter and the gap to the next point), and is
 *   delivered no earlier, under `schedule:<stream>/<id>@<incarnation>:<occurrence>`;
 * - a key that was delivered is never delivered again;
 * - after an occurrence settles at `s` (delivered, or skipped after maxAttempts), the next is the first point after
 *   it whose latest due time (the point plus the jitter) is still ahead of `s`: a point is coalesced only when even
 *   its latest due time passed while the stream was down or busy with the one before, so a healthy stream coalesces
 *   nothing.
 * Operations (upsert, cancel, resume, trigger, remove, backfill) are judged step by step by operations.ts: the
 * specification takes the position each leaves (occurrence, cadence, due time) and keeps the definition as sent.
 */

/** A definition as the caller sent it. */
export interface Definition {
  kind: Row["kind"]
  every: number | null
  cron: string | null
  timezone: string | null
  startAt: number | null
  endAt: number | null
  times: number | null
  jitter: number | null
  maxAttempts: number | null
}

interface Line {
  id: string
  incarnation: number | null
  def: Definition
  state: "scheduled" | "completed" | "stopped"
  /** Why a finished line finished: its window, its count, or anything else. */
  ended?: "window" | "count"
  occurrence: number
  cadence: number
  due: number
  delivered: number
  /** Every key delivered, and when. */
  fired: Map<string, number>
}

const recurring = (def: Definition) => def.kind === "every" || def.kind === "cron"
const show = (value: unknown) => JSON.stringify(value)

export const definitionOfRow = (row: Row): Definition => ({
  kind: row.kind,
  every: row.kind === "every" ? row.interval_ms : null,
  cron: row.cron,
  timezone: row.timezone,
  startAt: row.start_at,
  endAt: row.end_at,
  times: row.times,
  jitter: row.jitter_ms,
  maxAttempts: row.max_attempts,
})

/** What an upsert step sent, its times made absolute by the world (a cron as the stream spells it). */
export function sentDefinition(
  step: Extract<Step, { op: "upsert" }>,
  timing: SentTiming,
  rules: SentRules,
): Definition {
  const cron = "cron" in timing ? stored(timing.cron, timing.timezone) : { cron: null, timezone: null }
  return {
    kind: "at" in timing ? "at" : "after" in timing ? "after" : "every" in timing ? "every" : "cron",
    every: "every" in timing ? timing.every : null,
    ...cron,
    startAt: rules.startAt ?? null,
    endAt: rules.endAt ?? null,
    times: rules.times ?? null,
    jitter: rules.jitter === undefined || rules.jitter === 0 ? null : rules.jitter,
    maxAttempts: step.maxAttempts ?? null,
  }
}

/** The cadence point after `point`, or undefined when the cron names none. */
function after(def: Definition, point: number): number | undefined {
  if (def.kind === "every") return point + (def.every as number)
  return parseCron(def.cron as string, def.timezone as string).nextAfter(point)
}

export class Spec {
  readonly lines = new Map<string, Line>()

  constructor(
    private readonly stream: string,
    private readonly model: Model,
  ) {}

  /** A broken rule, reported from a check that stops there. */
  private miss(rule: string, message: string): undefined {
    this.model.fail(rule, message)
  }

  private keyOf(line: Line, occurrence = line.occurrence): string {
    return keyOf(this.stream, { id: line.id, incarnation: line.incarnation, occurrence })
  }

  private dueOf(line: Line, cadence: number): number {
    const row = {
      id: line.id,
      incarnation: line.incarnation,
      kind: line.def.kind,
      interval_ms: line.def.every,
      cron: line.def.cron,
      timezone: line.def.timezone,
      jitter_ms: line.def.jitter,
    } as Row
    return jitteredAt(this.stream, row, line.occurrence, cadence)
  }

  /** The position a judged operation left a row in; the definition is the one sent when `def` is given. */
  rebase(row: Row, def?: Definition): void {
    const known = this.lines.get(row.id)
    const same = known?.incarnation === row.incarnation
    const line: Line = {
      id: row.id,
      incarnation: row.incarnation,
      def: def ?? (same && known ? known.def : definitionOfRow(row)),
      state: row.state === "scheduled" ? "scheduled" : row.state === "completed" ? "completed" : "stopped",
      occurrence: row.occurrence,
      cadence: row.cadence_at,
      due: row.next_at,
      delivered: row.delivered,
      fired: same && known ? known.fired : new Map(),
    }
    this.lines.set(row.id, line)
  }

  /** Forgets a removed or swept row: a row of that id created later is a new schedule with new keys. */
  forget(id: string): void {
    this.lines.delete(id)
  }

  /** A tick claims `id`'s occurrence at `now`: it must be the one the specification expects, due, never delivered. */
  claimed(id: string, occurrence: number, nextAt: number, now: number): undefined {
    const line = this.lines.get(id)
    if (!line) return this.miss("spec-unknown", `${id} claimed, and the specification holds no such schedule`)
    const key = this.keyOf(line, occurrence)
    const firedAt = line.fired.get(key)
    if (firedAt !== undefined)
      return this.miss("spec-double-delivery", `${key} claimed at ${now}, delivered already at ${firedAt}`)
    if (line.state !== "scheduled") {
      const rule = line.ended === "window" ? "spec-past-end" : line.ended === "count" ? "spec-count" : "spec-sequence"
      return this.miss(rule, `${id} occurrence ${occurrence} claimed, but the schedule is ${line.state}`)
    }
    if (occurrence !== line.occurrence || nextAt !== line.due) {
      const rule = occurrence > line.occurrence || nextAt > line.due ? "spec-skipped-point" : "spec-sequence"
      return this.miss(
        rule,
        `${id} claimed occurrence ${occurrence} due ${nextAt}; expected occurrence ${line.occurrence} at cadence ${line.cadence}, due ${line.due}`,
      )
    }
    if (now < line.due) this.model.fail("spec-early", `${key} claimed at ${now}, before it is due at ${line.due}`)
  }

  /**
   * An answer written at `now` for `id`'s occurrence, as claimed attempt `attempts`: the specification's own next
   * position, then the stored row compared with it.
   */
  settled(
    id: string,
    claim: { occurrence: number; attempts: number },
    status: "delivered" | "retry" | "terminal",
    now: number,
    row: Row | undefined,
  ): undefined {
    const line = this.lines.get(id)
    if (!line) return this.miss("spec-unknown", `${id} settled, and the specification holds no such schedule`)
    if (claim.occurrence !== line.occurrence)
      return this.miss("spec-sequence", `${id} settled occurrence ${claim.occurrence}, not ${line.occurrence}`)
    if (status === "delivered") {
      const key = this.keyOf(line)
      const firedAt = line.fired.get(key)
      if (firedAt !== undefined)
        this.model.fail("spec-double-delivery", `${key} delivered at ${now}, and already at ${firedAt}`)
      line.fired.set(key, now)
      line.delivered++
      this.advance(line, now)
    } else if (status === "terminal") line.state = "stopped"
    else if (line.def.maxAttempts !== null && claim.attempts >= line.def.maxAttempts) {
      if (recurring(line.def)) this.advance(line, now)
      else line.state = "stopped"
    }
    this.compare(line, row, `after occurrence ${claim.occurrence} settled ${status} at ${now}`)
  }

  /** A tick gave up an occurrence whose allowed attempts were all claimed and lost (core.expireLost) at `now`. */
  expired(id: string, now: number, row: Row | undefined): void {
    const line = this.lines.get(id)
    if (!line) return
    if (recurring(line.def)) this.advance(line, now)
    else line.state = "stopped"
    this.compare(line, row, `after its lost last attempt was given up at ${now}`)
  }

  /** Past the current occurrence, settled at `s`: the next one not missed, or the end of the window or count. */
  private advance(line: Line, s: number): void {
    const { def } = line
    if (!recurring(def)) {
      line.state = "completed"
      return
    }
    if (def.times !== null && line.delivered >= def.times) {
      line.state = "completed"
      line.ended = "count"
      return
    }
    const latest = def.jitter ?? 0
    let next: number | undefined
    if (def.kind === "every") {
      // Missed: every point whose latest due time (point + jitter) is at or before s.
      const every = def.every as number
      const missed = Math.max(0, Math.floor((s - latest - line.cadence) / every))
      next = line.cadence + (missed + 1) * every
      this.model.counters.coalesced += missed
    } else {
      next = after(def, line.cadence)
      while (next !== undefined && next + latest <= s) {
        this.model.counters.coalesced++
        next = after(def, next)
      }
    }
    if (next === undefined || (def.endAt !== null && next > def.endAt)) {
      line.state = "completed"
      line.ended = "window"
      return
    }
    line.occurrence++
    line.cadence = next
    line.due = this.dueOf(line, next)
  }

  /**
   * An operation's rows, judged by operations.ts: each one it created, changed or deleted is taken as it left it;
   * `sent` is the definition of an upsert the stream took.
   */
  operated(before: Map<string, Row>, after: Map<string, Row>, sent?: { id: string; def: Definition }): void {
    for (const id of new Set([...before.keys(), ...after.keys()])) {
      const row = after.get(id)
      if (!row) this.forget(id)
      else if (sent?.id === id) this.rebase(row, sent.def)
      else if (!this.lines.has(id) || show(row) !== show(before.get(id))) this.rebase(row)
    }
  }

  /**
   * After every step, each row is where the specification says: a tick's claims and answers moved rows only as
   * `claimed` and `settled` allowed, a tick gave up lost last attempts (`expired`) and swept finished rows, and
   * nothing else moved one.
   */
  reconcile(pre: Map<string, Row>, post: Map<string, Row>, tickAt: number | undefined, settled: Set<string>): void {
    for (const [id, line] of this.lines) {
      const row = post.get(id)
      const was = pre.get(id)
      const spent =
        tickAt !== undefined &&
        !settled.has(id) &&
        was?.state === "scheduled" &&
        was.max_attempts !== null &&
        was.attempts >= was.max_attempts &&
        was.eligible_at <= tickAt &&
        line.state === "scheduled"
      // Given up, a one-shot fails, and with a retention window of 0 the same tick may sweep it.
      if (spent && show(row) !== show(was)) {
        if (row) this.expired(id, tickAt, row)
        else if (recurring(line.def)) {
          // Given up past its window's end or its count, a recurring one completes, and retention 0 may sweep it too.
          this.advance(line, tickAt)
          if (line.state === "scheduled")
            this.model.fail("spec-lost", `${id} was deleted while scheduled: ${show(line)}`)
        }
      } else if (row) this.compare(line, row, "after the step")
      else if (line.state === "scheduled")
        this.model.fail("spec-lost", `${id} was deleted while scheduled: ${show(line)}`)
      if (!row) this.forget(id)
    }
    for (const row of post.values()) if (!this.lines.has(row.id)) this.rebase(row)
  }

  /** At a drain: each schedule's view (its count, due time and state) is the specification's. */
  async views(get: (id: string) => Promise<unknown>): Promise<void> {
    for (const line of this.lines.values()) {
      const reply = (await get(line.id)) as { ok: boolean; value?: Record<string, unknown> }
      const view = reply.ok ? reply.value : undefined
      const state = view?.state === "cancelled" || view?.state === "failed" ? "stopped" : view?.state
      const wrong =
        !view ||
        state !== line.state ||
        view.delivered !== line.delivered ||
        view.occurrence !== line.occurrence ||
        (line.state === "scheduled" && (view.nextAt !== line.due || view.cadenceAt !== line.cadence))
      if (wrong)
        this.model.fail(
          "spec-view",
          `${line.id}'s view ${show(view && { state: view.state, occurrence: view.occurrence, cadenceAt: view.cadenceAt, nextAt: view.nextAt, delivered: view.delivered })} is not ${show({ ...line, fired: line.fired.size })}`,
        )
    }
  }

  /** The stored row must be where the specification is; the rule broken names what went wrong. */
  compare(line: Line, row: Row | undefined, when: string): undefined {
    if (!row) return this.miss("spec-lost", `${line.id} is gone ${when}, expected ${show(line)}`)
    const state = row.state === "scheduled" ? "scheduled" : row.state === "completed" ? "completed" : "stopped"
    const scheduled = line.state === "scheduled"
    const same =
      state === line.state &&
      row.occurrence === line.occurrence &&
      row.delivered === line.delivered &&
      (!scheduled || (row.cadence_at === line.cadence && row.next_at === line.due))
    if (same) return
    const expected = `expected ${line.state} occurrence ${line.occurrence} at cadence ${line.cadence} due ${line.due}, ${line.delivered} delivered`
    const got = `got ${row.state} occurrence ${row.occurrence} at cadence ${row.cadence_at} due ${row.next_at}, ${row.delivered} delivered`
    let rule = "spec-sequence"
    if (!scheduled && state === "scheduled")
      rule = line.ended === "window" ? "spec-past-end" : line.ended === "count" ? "spec-count" : rule
    else if (scheduled && state === "scheduled" && row.cadence_at > line.cadence) rule = "spec-skipped-point"
    else if (state === "scheduled" && line.fired.has(this.keyOf(line, row.occurrence))) rule = "spec-double-delivery"
    this.model.fail(rule, `${line.id} ${when}: ${expected}; ${got}`)
    // Judged once: go on from what is stored, so one fault is reported once.
    this.rebase(row)
  }
}
