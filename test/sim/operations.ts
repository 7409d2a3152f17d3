import { parseCron } from "../../src/infra/cron.ts"
import type { Reply } from "../../src/infra/schedules/contract/reply.ts"
import type { Model } from "./model.ts"
import { backfillIdOf, type Event, firstCadence, isOver, isRecurring, jitteredAt, type Row, sameRow } from "./rows.ts"
import { canonicalCron, type Step, stored } from "./steps.ts"

export type OperationStep = Extract<Step, { op: "upsert" | "cancel" | "resume" | "trigger" | "remove" | "backfill" }>

/** A step's timing with `at` made absolute, as the world sent it. */
export type SentTiming = { at: number } | { after: number } | { every: number } | { cron: string; timezone?: string }
/** An upsert's window (absolute), count and jitter, as the world sent them. */
export interface SentRules {
  startAt?: number
  endAt?: number
  times?: number
  jitter?: number
}

/** One caller operation, with storage before and after it. */
export interface Operation {
  step: OperationStep
  /** For an upsert: the timing sent. */
  timing?: SentTiming
  /** For an upsert: its window, count and jitter. */
  rules?: SentRules
  /** For an upsert: its consumer was missing from the deploy (a rolling deploy). */
  consumerMissing?: boolean
  stream: string
  /** Every row before and after the call, and the stream's last backfill number before it. */
  rowsBefore: Map<string, Row>
  rowsAfter: Map<string, Row>
  runBefore: number
  now: number
  before: Row | undefined
  after: Row | undefined
  events: Event[]
  /** undefined when the call threw (a storage fault) */
  reply: Reply<unknown> | undefined
  refusing: boolean
}

interface Expected {
  reply: "ok" | "conflict" | "not_found" | "invalid"
  /** The one event a change appends: its type, and its cause for schedule/set (a cancel's reason, null: none). */
  event?: { type: string; cause?: string; reason?: string | null }
  row?: (after: Row) => string | undefined
  /** The row is deleted. */
  gone?: true
}

type Columns = Pick<Row, "kind" | "at_ms" | "interval_ms" | "cron" | "timezone">

/** The first field in which `after` is not `want`, described. */
function differs(after: Row, want: Partial<Row>): string | undefined {
  for (const [field, value] of Object.entries(want)) {
    const got = after[field as keyof Row]
    if (got !== value) return `${field} is ${JSON.stringify(got)}, expected ${JSON.stringify(value)}`
  }
  return undefined
}

const keep = (before: Row, fields: Array<keyof Row>): Partial<Row> =>
  Object.fromEntries(fields.map((field) => [field, before[field]]))

const unclaimed = { claim_token: null, claim_until: null } as const
/** A claim a caller takes away: the token goes; a live lease stays, holding the key back while its delivery may run. */
const withdrawn = (before: Row, now: number) => ({
  claim_token: null,
  claim_until: before.claim_until !== null && before.claim_until > now ? before.claim_until : null,
})
const clearedAttempt = { retry_at: null, attempts: 0, last_error: null } as const

/** The shortest gap between a timing's next occurrences (a cron's next 8 times from `from`), as validation takes it. */
function shortestGap(t: SentTiming, from: number): number | undefined {
  if ("every" in t) return t.every
  if (!("cron" in t)) return undefined
  const cron = parseCron(t.cron, t.timezone ?? "UTC")
  let gap = Number.POSITIVE_INFINITY
  let at = cron.nextAfter(from)
  for (let i = 0; i < 8 && at !== undefined; i++) {
    const next = cron.nextAfter(at)
    if (next !== undefined) gap = Math.min(gap, next - at)
    at = next
  }
  return Number.isFinite(gap) ? gap : undefined
}

/** Why a definition's window, count or jitter does not fit its timing (undefined: they fit). */
function refusedRules(t: SentTiming, r: SentRules, now: number): boolean {
  const recurring = "every" in t || "cron" in t
  if (!recurring && (r.startAt !== undefined || r.endAt !== undefined || r.times !== undefined)) return true
  if (r.startAt !== undefined && r.endAt !== undefined) {
    if (r.endAt < r.startAt) return true
    if ("cron" in t && (parseCron(t.cron, t.timezone ?? "UTC").nextAfter(r.startAt - 1) as number) > r.endAt)
      return true
  }
  const gap = r.jitter === undefined ? undefined : shortestGap(t, Math.max(now, r.startAt ?? now))
  return gap !== undefined && (r.jitter as number) >= gap
}

function upsertExpected(o: Operation, t: SentTiming): Expected {
  const { before, now, stream } = o
  const step = o.step as Extract<Step, { op: "upsert" }>
  const r = o.rules ?? {}
  // A definition naming a consumer the deploy lacks is refused, writing nothing; so is a window, count or jitter that does not fit.
  if (o.consumerMissing || refusedRules(t, r, now)) return { reply: "invalid" }
  const none = { at_ms: null, interval_ms: null, cron: null, timezone: null }
  const columns: Columns =
    "at" in t
      ? { ...none, kind: "at", at_ms: t.at }
      : "after" in t
        ? { ...none, kind: "after", interval_ms: t.after }
        : "every" in t
          ? { ...none, kind: "every", interval_ms: t.every }
          : { ...none, kind: "cron", ...stored(t.cron, t.timezone) }
  const when = {
    start_at: r.startAt ?? null,
    end_at: r.endAt ?? null,
    jitter_ms: r.jitter === undefined || r.jitter === 0 ? null : r.jitter,
  }
  const spec = {
    consumer: step.consumer,
    payload: JSON.stringify(step.payload),
    max_attempts: step.maxAttempts ?? null,
    times: r.times ?? null,
    ...when,
  }
  const cadence = firstCadence(t, now, when.start_at)
  /** Where occurrence `occurrence` of a row of `incarnation` is delivered: its cadence time plus the new jitter's offset. */
  const due = (incarnation: number | null, occurrence: number) =>
    jitteredAt(stream, { ...columns, ...when, id: step.id, incarnation } as Row, occurrence, cadence)
  const set = (cause: string) => ({ type: "schedule/set", cause })
  const completed = { state: "completed" as const, ...clearedAttempt, ...unclaimed }
  if (!before) {
    const over = isOver({ end_at: when.end_at, times: spec.times, delivered: 0 }, cadence)
    return {
      reply: "ok",
      event: set("created"),
      row: (a) =>
        differs(a, {
          ...columns,
          ...spec,
          state: over ? "completed" : "scheduled",
          occurrence: 1,
          next_at: due(a.incarnation, 1),
          cadence_at: cadence,
          ...clearedAttempt,
          ...unclaimed,
          finished_at: over ? now : null,
          delivered: 0,
          cancel_reason: null,
          backfill_of: null,
        }),
    }
  }
  // Timings are compared as they behave: another spelling of the same cron is the same timing.
  const sameTiming =
    columns.kind === "cron" && before.kind === "cron"
      ? canonicalCron(columns.cron as string, columns.timezone as string) ===
        canonicalCron(before.cron as string, before.timezone as string)
      : Object.entries(columns).every(([field, value]) => before[field as keyof Row] === value)
  const sameWhen = sameTiming && Object.entries(when).every(([field, value]) => before[field as keyof Row] === value)
  const sameSpec = sameWhen && Object.entries(spec).every(([field, value]) => before[field as keyof Row] === value)
  const overFrom = (delivered: number) => isOver({ end_at: when.end_at, times: spec.times, delivered }, cadence)
  if (before.state !== "scheduled") {
    // A delivered one-shot starts a new occurrence, so its key is not deduped away.
    const occurrence = before.occurrence + (before.state === "completed" ? 1 : 0)
    if (!overFrom(before.delivered)) {
      return {
        reply: "ok",
        event: set("restarted"),
        row: (a) =>
          differs(a, {
            ...columns,
            ...spec,
            state: "scheduled",
            occurrence,
            next_at: due(before.incarnation, occurrence),
            cadence_at: cadence,
            ...clearedAttempt,
            ...withdrawn(before, now),
            finished_at: null,
            delivered: before.delivered,
            cancel_reason: null,
          }),
      }
    }
    // Over at once (its count reached, its window ended): it stays completed, or completes where it stands.
    if (before.state === "completed" && sameSpec) return { reply: "ok" }
    const finishedAt = before.state === "completed" ? before.finished_at : now
    return {
      reply: "ok",
      event: set("completed"),
      row: (a) =>
        differs(a, {
          ...columns,
          ...spec,
          ...completed,
          ...keep(before, ["occurrence", "next_at", "cadence_at", "delivered"]),
          finished_at: finishedAt,
          cancel_reason: null,
        }),
    }
  }
  if (sameSpec) return { reply: "ok" }
  const position = keep(before, ["occurrence", "next_at", "cadence_at", "delivered"])
  if (spec.times !== null && before.delivered >= spec.times) {
    return {
      reply: "ok",
      event: set("completed"),
      row: (a) => differs(a, { ...columns, ...spec, ...completed, ...position, finished_at: now }),
    }
  }
  if (sameWhen) {
    // The stored timing stays as first spelled; only the rules and payload change.
    const timing = keep(before, ["kind", "at_ms", "interval_ms", "cron", "timezone"])
    const kept = keep(before, [
      "state",
      "occurrence",
      "next_at",
      "cadence_at",
      "retry_at",
      "attempts",
      "claim_token",
      "claim_until",
      "delivered",
    ])
    return { reply: "ok", event: set("updated"), row: (a) => differs(a, { ...spec, ...timing, ...kept }) }
  }
  const next = due(before.incarnation, before.occurrence)
  if (overFrom(before.delivered)) {
    return {
      reply: "ok",
      event: set("completed"),
      row: (a) =>
        differs(a, {
          ...columns,
          ...spec,
          ...completed,
          ...keep(before, ["occurrence", "delivered"]),
          next_at: next,
          cadence_at: cadence,
          finished_at: now,
        }),
    }
  }
  // A new timing: same occurrence at a new due time, afresh; an in-flight claim stays, unable to settle.
  // At the same due time the occurrence's attempts stand, and an in-flight claim settles under the new timing.
  const kept = keep(before, ["state", "occurrence", "claim_token", "claim_until", "finished_at", "delivered"])
  const attempt = next === before.next_at ? keep(before, ["retry_at", "attempts", "last_error"]) : clearedAttempt
  return {
    reply: "ok",
    event: set("retimed"),
    row: (a) => differs(a, { ...columns, ...spec, ...kept, next_at: next, cadence_at: cadence, ...attempt }),
  }
}

/** A cancel's reason as stored: none for empty, cut to 1,000 characters. */
const reasonOf = (reason: string | undefined) =>
  reason === undefined || reason === "" ? null : reason.length > 1_000 ? `${reason.slice(0, 999)}…` : reason

function expected(o: Operation): Expected {
  const { step, before, now } = o
  if (step.op === "upsert") return upsertExpected(o, o.timing as SentTiming)
  if (step.op === "backfill") throw new Error("a backfill is checked by checkBackfill")
  if (!before) return { reply: "not_found" }
  const position = keep(before, ["occurrence", "next_at", "cadence_at"])
  switch (step.op) {
    case "cancel": {
      if (before.state !== "scheduled" && before.state !== "failed") return { reply: "conflict" }
      const cancelReason = reasonOf(step.reason)
      return {
        reply: "ok",
        event: { type: "schedule/cancelled", reason: cancelReason },
        row: (a) =>
          differs(a, {
            ...position,
            state: "cancelled",
            retry_at: null,
            ...withdrawn(before, now),
            finished_at: now,
            cancel_reason: cancelReason,
          }),
      }
    }
    case "resume":
      if (before.state !== "failed" && before.state !== "cancelled") return { reply: "conflict" }
      return {
        reply: "ok",
        event: { type: "schedule/set", cause: "resumed" },
        row: (a) =>
          differs(a, {
            ...position,
            state: "scheduled",
            ...clearedAttempt,
            ...withdrawn(before, now),
            finished_at: null,
            cancel_reason: null,
          }),
      }
    case "remove":
      if (before.state === "scheduled") return { reply: "conflict" }
      // Gone, the id would start over at occurrence 1: the same key, deliverable while the held one runs.
      if (before.claim_until !== null && before.claim_until > now) return { reply: "conflict" }
      return { reply: "ok", event: { type: "schedule/removed" }, gone: true }
    case "trigger":
      if (before.state !== "scheduled") return { reply: "conflict" }
      if (before.claim_until !== null && before.claim_until > now) return { reply: "conflict" }
      return {
        reply: "ok",
        event: { type: "schedule/set", cause: "triggered" },
        row: (a) =>
          differs(a, {
            ...keep(before, ["occurrence", "cadence_at", "attempts", "state"]),
            next_at: Math.min(before.next_at, now),
            retry_at: null,
            ...unclaimed,
          }),
      }
  }
}

/** Checks a caller operation's reply, row and events against ADR 0202's rules for it. */
export function checkOperation(o: Operation, model: Model): void {
  const fail = (message: string) =>
    model.fail("operation", `${o.step.op} ${o.step.id} at ${o.now}: ${message} (before ${JSON.stringify(o.before)})`)
  const unchanged = sameRow(o.before, o.after) && o.events.length === 0
  if (o.refusing) {
    if (o.reply?.ok !== false || o.reply.error.code !== "unavailable" || !unchanged)
      fail(`a refusing stream answered ${JSON.stringify(o.reply)}`)
    return
  }
  if (o.step.op === "backfill") {
    checkBackfill(o, fail, model)
    return
  }
  const want = expected(o)
  if (o.reply?.ok === false && o.reply.error.code === "invalid" && !o.consumerMissing) model.counters.rulesRefused++
  if (o.reply?.ok && o.step.op === "cancel" && want.event?.reason) model.counters.reasons++
  if (o.reply?.ok && want.event?.cause === "completed") model.counters.ruleCompleted++
  // A call that threw on a storage fault either rolled back or committed before the fault.
  if (o.reply === undefined && unchanged) return
  if (o.reply !== undefined) {
    const code = o.reply.ok ? "ok" : o.reply.error.code
    if (code !== want.reply) {
      fail(`replied ${JSON.stringify(o.reply)}, expected ${want.reply}`)
      return
    }
  }
  if (!want.event) {
    if (!unchanged) fail(`changed storage: ${JSON.stringify(o.after)} ${JSON.stringify(o.events)}`)
    return
  }
  const [event] = o.events
  if (
    o.events.length !== 1 ||
    event?.type !== want.event.type ||
    event.schedule_id !== o.step.id ||
    (want.event.cause !== undefined && event.data.cause !== want.event.cause) ||
    (want.event.reason !== undefined && event.data.reason !== (want.event.reason ?? undefined))
  ) {
    fail(`expected one ${want.event.type} ${want.event.cause ?? ""} event, got ${JSON.stringify(o.events)}`)
  }
  if (want.gone) {
    if (o.after) fail(`the row is still there: ${JSON.stringify(o.after)}`)
    return
  }
  const problem = o.after ? want.row?.(o.after) : "the row is gone"
  if (problem) fail(problem)
}

/** The times a recurring row's cadence names in [from, to] inside its window, restated: at most 1,001. */
function cadenceIn(row: Row, from: number, to: number): number[] {
  const start = Math.max(from, row.start_at ?? from)
  const end = Math.min(to, row.end_at ?? to)
  const times: number[] = []
  if (row.kind === "every") {
    const i = row.interval_ms as number
    for (
      let at = row.cadence_at + Math.ceil((start - row.cadence_at) / i) * i;
      at <= end && times.length <= 1_000;
      at += i
    )
      times.push(at)
    return times
  }
  const cron = parseCron(row.cron as string, row.timezone as string)
  for (
    let at = cron.nextAfter(start - 1);
    at !== undefined && at <= end && times.length <= 1_000;
    at = cron.nextAfter(at)
  )
    times.push(at)
  return times
}

/**
 * A backfill (docs/schedules.md, "Backfill"): a range not in the past or reversed is invalid, a one-shot a conflict,
 * more than 1,000 occurrences invalid; otherwise one one-shot per occurrence, `<id>~backfill-<run>-<time>`, due
 * at its time with the parent's consumer, payload and maxAttempts, and one event on the parent; a preview writes nothing.
 */
function checkBackfill(o: Operation, fail: (message: string) => void, model: Model): void {
  const step = o.step as Extract<Step, { op: "backfill" }>
  const { before, now } = o
  const from = now + step.from
  const to = now + step.to
  const unchanged = [...o.rowsBefore.keys(), ...o.rowsAfter.keys()].every((id) =>
    sameRow(o.rowsBefore.get(id), o.rowsAfter.get(id)),
  )
  const code = (reply: Reply<unknown> | undefined) =>
    reply === undefined ? undefined : reply.ok ? "ok" : reply.error.code
  const refusedAs = (want: string) => {
    if (o.reply !== undefined && code(o.reply) !== want) fail(`replied ${JSON.stringify(o.reply)}, expected ${want}`)
    if (!unchanged || o.events.length > 0) fail(`a refused backfill wrote: ${JSON.stringify(o.events)}`)
    if (want !== "not_found") model.counters.backfillRefused++
  }
  if (to > now || to < from) {
    refusedAs("invalid")
    return
  }
  if (!before) {
    refusedAs("not_found")
    return
  }
  if (!isRecurring(before)) {
    refusedAs("conflict")
    return
  }
  const times = cadenceIn(before, from, to)
  if (times.length > 1_000) {
    refusedAs("invalid")
    return
  }
  if (o.reply === undefined && unchanged) return
  if (o.reply !== undefined) {
    const value = o.reply.ok ? (o.reply.value as { backfill: { count: number; ids: string[] } }) : undefined
    if (!value || value.backfill.count !== times.length) {
      fail(`replied ${JSON.stringify(o.reply)}, expected ${times.length} occurrences`)
      return
    }
  }
  if (step.dryRun || times.length === 0) {
    if (!unchanged || o.events.length > 0) fail(`a preview or an empty backfill wrote: ${JSON.stringify(o.events)}`)
    return
  }
  const run = o.runBefore + 1
  model.counters.backfilled += times.length
  const ids = times.map((at) => backfillIdOf(before.id, run, at))
  for (const [i, id] of ids.entries()) {
    const row = o.rowsAfter.get(id)
    const at = times[i] as number
    if (o.rowsBefore.has(id) || !row) {
      fail(`backfill row ${id} was not created`)
      return
    }
    const problem = differs(row, {
      kind: "at",
      at_ms: at,
      next_at: at,
      cadence_at: at,
      state: "scheduled",
      occurrence: 1,
      consumer: before.consumer,
      payload: before.payload,
      max_attempts: before.max_attempts,
      backfill_of: before.id,
      ...clearedAttempt,
      ...unclaimed,
      times: null,
      delivered: 0,
      jitter_ms: null,
      start_at: null,
      end_at: null,
      finished_at: null,
    })
    if (problem) {
      fail(`backfill row ${id}: ${problem}`)
      return
    }
    const events = o.events.filter((e) => e.schedule_id === id)
    if (events.length !== 1 || events[0]?.data.cause !== "backfill")
      fail(`backfill row ${id} events ${JSON.stringify(events)}`)
  }
  const parent = o.rowsAfter.get(before.id)
  const without = (row: Row | undefined) => {
    const { event_lines: _, event_seq: __, written_seq: ___, ...rest } = (row ?? {}) as Row & Record<string, unknown>
    return JSON.stringify(rest)
  }
  if (without(parent) !== without(before)) fail(`a backfill changed its schedule: ${JSON.stringify(parent)}`)
  const noted = o.events.filter((e) => e.schedule_id === before.id)
  if (noted.length !== 1 || noted[0]?.data.cause !== "backfilled" || noted[0]?.data.count !== times.length)
    fail(`the schedule backfilled got events ${JSON.stringify(noted)}`)
  const created = new Set(ids)
  for (const [id, row] of o.rowsAfter)
    if (id !== before.id && !created.has(id) && !sameRow(o.rowsBefore.get(id), row)) fail(`a backfill changed ${id}`)
}
