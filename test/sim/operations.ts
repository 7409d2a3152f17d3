import { parseCron } from "../../src/infra/cron.ts"
import type { Reply } from "../../src/infra/schedules/contract/reply.ts"
import type { Model } from "./model.ts"
import { type Event, type Row, sameRow } from "./rows.ts"
import { canonicalCron, type Step, stored } from "./steps.ts"

export type OperationStep = Extract<Step, { op: "upsert" | "cancel" | "resume" | "trigger" | "remove" }>

/** A step's timing with `at` made absolute, as the world sent it. */
export type SentTiming = { at: number } | { after: number } | { every: number } | { cron: string; timezone?: string }

/** One caller operation, with storage before and after it. */
export interface Operation {
  step: OperationStep
  /** For an upsert: the timing sent. */
  timing?: SentTiming
  /** For an upsert: its consumer was missing from the deploy (a rolling deploy). */
  consumerMissing?: boolean
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
  /** The one event a change appends: its type, and its cause for schedule/set. */
  event?: { type: string; cause?: string }
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

function upsertExpected(o: Operation, t: SentTiming): Expected {
  const { before, now } = o
  const step = o.step as Extract<Step, { op: "upsert" }>
  // A definition naming a consumer the deploy lacks is refused, writing nothing.
  if (o.consumerMissing) return { reply: "invalid" }
  const none = { at_ms: null, interval_ms: null, cron: null, timezone: null }
  const columns: Columns =
    "at" in t
      ? { ...none, kind: "at", at_ms: t.at }
      : "after" in t
        ? { ...none, kind: "after", interval_ms: t.after }
        : "every" in t
          ? { ...none, kind: "every", interval_ms: t.every }
          : { ...none, kind: "cron", ...stored(t.cron, t.timezone) }
  const spec = {
    consumer: step.consumer,
    payload: JSON.stringify(step.payload),
    max_attempts: step.maxAttempts ?? null,
  }
  const due =
    "at" in t
      ? t.at
      : "cron" in t
        ? (parseCron(t.cron, t.timezone ?? "UTC").nextAfter(now) as number)
        : now + ("after" in t ? t.after : t.every)
  const set = (cause: string) => ({ type: "schedule/set", cause })
  if (!before) {
    return {
      reply: "ok",
      event: set("created"),
      row: (a) =>
        differs(a, {
          ...columns,
          ...spec,
          state: "scheduled",
          occurrence: 1,
          next_at: due,
          cadence_at: due,
          ...clearedAttempt,
          ...unclaimed,
          finished_at: null,
        }),
    }
  }
  if (before.state !== "scheduled") {
    // A delivered one-shot starts a new occurrence, so its key is not deduped away.
    const occurrence = before.occurrence + (before.state === "completed" ? 1 : 0)
    return {
      reply: "ok",
      event: set("restarted"),
      row: (a) =>
        differs(a, {
          ...columns,
          ...spec,
          state: "scheduled",
          occurrence,
          next_at: due,
          cadence_at: due,
          ...clearedAttempt,
          ...withdrawn(before, now),
          finished_at: null,
        }),
    }
  }
  // Timings are compared as they behave: another spelling of the same cron is the same timing.
  const sameTiming =
    columns.kind === "cron" && before.kind === "cron"
      ? canonicalCron(columns.cron as string, columns.timezone as string) ===
        canonicalCron(before.cron as string, before.timezone as string)
      : Object.entries(columns).every(([field, value]) => before[field as keyof Row] === value)
  const sameSpec = sameTiming && Object.entries(spec).every(([field, value]) => before[field as keyof Row] === value)
  if (sameSpec) return { reply: "ok" }
  if (sameTiming) {
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
    ])
    return { reply: "ok", event: set("updated"), row: (a) => differs(a, { ...spec, ...timing, ...kept }) }
  }
  // A new timing: same occurrence at a new due time, afresh; an in-flight claim stays, unable to settle.
  // At the same due time the occurrence's attempts stand, and an in-flight claim settles under the new timing.
  const kept = keep(before, ["state", "occurrence", "claim_token", "claim_until", "finished_at"])
  const attempt = due === before.next_at ? keep(before, ["retry_at", "attempts", "last_error"]) : clearedAttempt
  return {
    reply: "ok",
    event: set("retimed"),
    row: (a) => differs(a, { ...columns, ...spec, ...kept, next_at: due, cadence_at: due, ...attempt }),
  }
}

function expected(o: Operation): Expected {
  const { step, before, now } = o
  if (step.op === "upsert") return upsertExpected(o, o.timing as SentTiming)
  if (!before) return { reply: "not_found" }
  const position = keep(before, ["occurrence", "next_at", "cadence_at"])
  switch (step.op) {
    case "cancel":
      if (before.state !== "scheduled" && before.state !== "failed") return { reply: "conflict" }
      return {
        reply: "ok",
        event: { type: "schedule/cancelled" },
        row: (a) =>
          differs(a, { ...position, state: "cancelled", retry_at: null, ...withdrawn(before, now), finished_at: now }),
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
  const want = expected(o)
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
    (want.event.cause !== undefined && event.data.cause !== want.event.cause)
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
