import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { planSwitch, type SwitchPlan, type SwitchView, switchSummary } from "../../src/infra/alerts/dead-mans-switch.ts"
import { DEFAULT_RETENTION_MS } from "../../src/infra/schedules/contract/limits.ts"

/**
 * The dead man's switch's states (issue 46, item 1) against properties: planSwitch alone, then a timeline of the
 * alerts job's runs over a model of the alert stream (a one-shot delivered once its time has passed, swept
 * DEFAULT_RETENTION_MS after), judged by what a person expects of the heartbeat-late incident.
 */

const MINUTE = 60_000
const T = Date.UTC(2100, 0, 4, 8, 0)
const STATES = ["scheduled", "completed", "cancelled", "failed"] as const

const view = fc.record({
  state: fc.constantFrom(...STATES),
  nextAt: fc.integer({ min: T - 60 * MINUTE, max: T + 60 * MINUTE }),
  attempts: fc.integer({ min: 0, max: 3 }),
  // The switch's notice, or a schedule of that id with no payload (an operator's, or a damaged row).
  payload: fc.option(fc.record({ openedAt: fc.integer({ min: T - 60 * MINUTE, max: T + 60 * MINUTE }) }), {
    nil: null,
  }),
}) as fc.Arbitrary<SwitchView>
const run = fc.record({
  afterMs: fc.option(fc.integer({ min: MINUTE, max: 60 * MINUTE }), { nil: undefined }),
  now: fc.integer({ min: T - 30 * MINUTE, max: T + 30 * MINUTE }),
  armedFor: fc.option(fc.integer({ min: T - 60 * MINUTE, max: T + 60 * MINUTE }), { nil: null }),
})

describe("planSwitch, one run", () => {
  it("leaves a delivery under way alone, resolves only what was delivered or swept, and arms at the database's now", () => {
    fc.assert(
      fc.property(fc.option(view, { nil: undefined }), run, (current, r) => {
        const plan = planSwitch(current, r)
        const off = r.afterMs === undefined && r.armedFor === null
        const underWay = current?.state === "scheduled" && (current.nextAt <= r.now || current.attempts > 0)
        if (off || underWay) {
          expect(plan).toMatchObject({ resolve: null, withdraw: null, armAt: null, armedFor: undefined })
          expect(plan.step).toBe(off ? "off" : "firing")
          return
        }
        const delivered = current?.state === "completed" || current?.state === "failed"
        const swept = current === undefined && r.armedFor !== null && r.armedFor <= r.now
        expect(plan.resolve !== null).toBe(delivered || swept)
        if (plan.resolve) {
          expect(plan.step).toBe("resolved")
          expect(plan.resolve.resolvedAt).toBe(Math.max(r.now, plan.resolve.openedAt))
          // What the firing notice said, swept or not: the summary the switch was armed with (issue 47).
          expect(plan.resolve.cause).toBe(switchSummary(plan.resolve.openedAt))
        }
        if (r.afterMs === undefined) {
          // The rule was removed from the code: never armed again, withdrawn if the stream holds it.
          expect(plan).toMatchObject({ armAt: null, armedFor: null })
          expect(plan.withdraw).toEqual(current ? { cancel: current.state === "scheduled" } : null)
        } else {
          expect(plan).toMatchObject({ withdraw: null, armAt: r.now + r.afterMs, armedFor: r.now + r.afterMs })
        }
      }),
      { numRuns: 2_000 },
    )
  })
})

interface Notice {
  status: "firing" | "resolved"
  openedAt: number
  at: number
}

/**
 * The alerts job runs at `runs` (increasing, ms) with a heartbeat-late rule of `afterMs`, then once more without it;
 * the alert stream delivers the switch once its time has passed before a run, and sweeps a delivered one after its
 * retention. Answers the notices, in order.
 */
function timeline(afterMs: number, runs: readonly number[], plan = planSwitch): Notice[] {
  const notices: Notice[] = []
  let stream: (SwitchView & { deliveredAt?: number }) | undefined
  let armedFor: number | null = null
  const advance = (to: number) => {
    // Delivered by the stream's alarm at its time; that delivery is the firing notice.
    if (stream?.state === "scheduled" && stream.nextAt < to) {
      stream = { ...stream, state: "completed", deliveredAt: stream.nextAt }
      notices.push({ status: "firing", openedAt: stream.nextAt, at: stream.nextAt })
    }
    if (stream?.deliveredAt !== undefined && stream.deliveredAt + DEFAULT_RETENTION_MS < to) stream = undefined
  }
  const runAt = (now: number, rule: number | undefined) => {
    advance(now)
    const p: SwitchPlan = plan(stream, { afterMs: rule, now, armedFor })
    if (p.resolve) notices.push({ status: "resolved", openedAt: p.resolve.openedAt, at: p.resolve.resolvedAt })
    if (p.withdraw) stream = undefined
    if (p.armAt !== null) stream = { state: "scheduled", nextAt: p.armAt, attempts: 0, payload: { openedAt: p.armAt } }
    if (p.armedFor !== undefined) armedFor = p.armedFor
  }
  for (const now of runs) runAt(now, afterMs)
  const last = runs.at(-1) as number
  runAt(last + MINUTE, undefined)
  // Long after, nothing may fire: the switch was withdrawn with its rule.
  advance(last + 100 * DEFAULT_RETENTION_MS)
  return notices
}

/** A gap between runs: shorter than the rule's `after`, exactly it, longer, or past the stream's retention. */
const gap = (afterMs: number) =>
  fc.oneof(
    fc.integer({ min: 1, max: afterMs - 1 }),
    fc.constant(afterMs),
    fc.integer({ min: afterMs + 1, max: 20 * afterMs }),
    fc.integer({ min: DEFAULT_RETENTION_MS, max: 3 * DEFAULT_RETENTION_MS }),
  )
const timelines = fc
  .integer({ min: 2, max: 30 })
  .map((minutes) => minutes * MINUTE)
  .chain((afterMs) => fc.tuple(fc.constant(afterMs), fc.array(gap(afterMs), { minLength: 1, maxLength: 25 })))
  .map(([afterMs, gaps]) => {
    const runs = [T]
    for (const g of gaps) runs.push((runs.at(-1) as number) + g)
    return { afterMs, runs }
  })

/** What a person expects of the incident: the faults found, none when all hold. */
function faults(afterMs: number, runs: readonly number[], notices: readonly Notice[]): string[] {
  const found: string[] = []
  let open: Notice | undefined
  for (const notice of notices) {
    if (notice.status === "firing") {
      if (open) found.push(`fired twice: ${open.openedAt}, then ${notice.openedAt}`)
      // It fires only `after` past a run, with no run before then.
      const before = runs.filter((at) => at < notice.openedAt).at(-1)
      if (before === undefined || notice.openedAt - before !== afterMs)
        found.push(`fired at ${notice.openedAt}, not ${afterMs} ms after the run before it (${before})`)
      open = notice
    } else {
      if (!open) found.push(`resolved ${notice.openedAt} without firing`)
      else if (open.openedAt !== notice.openedAt) found.push(`resolved ${notice.openedAt}, not ${open.openedAt}`)
      open = undefined
    }
  }
  if (open) found.push(`${open.openedAt} never resolved`)
  // Every silence of `after` or more opens an incident (or finds one open), by the time `after` has passed.
  for (let i = 0; i + 1 < runs.length; i++) {
    const due = (runs[i] as number) + afterMs
    if ((runs[i + 1] as number) < due) continue
    const covered = notices.some((n, k) => {
      if (n.status !== "firing" || n.openedAt > due) return false
      const end = notices.slice(k + 1).find((m) => m.status === "resolved" && m.openedAt === n.openedAt)
      return end === undefined || end.at >= due
    })
    if (!covered) found.push(`silent from ${runs[i]} to ${runs[i + 1]}: no incident`)
  }
  return found
}

describe("the switch over a timeline of runs", () => {
  it("fires once per silence of `after`, only then, resolves each once, and never after its rule is removed", () => {
    fc.assert(
      fc.property(timelines, ({ afterMs, runs }) => {
        expect(faults(afterMs, runs, timeline(afterMs, runs))).toEqual([])
      }),
      { numRuns: 1_000 },
    )
  })

  it("catches a planted fault: a switch that is not pushed back, or not resolved", () => {
    const never: typeof planSwitch = (current, r) => {
      const plan = planSwitch(current, r)
      // Armed once and never pushed back: it fires though the job runs every minute.
      return current?.state === "scheduled" ? { ...plan, armAt: null, armedFor: undefined } : plan
    }
    const runs = Array.from({ length: 10 }, (_, i) => T + i * MINUTE)
    expect(faults(3 * MINUTE, runs, timeline(3 * MINUTE, runs, never))).toContainEqual(
      expect.stringMatching(/not 180000 ms after the run before it/),
    )
    const unresolved: typeof planSwitch = (current, r) => ({ ...planSwitch(current, r), resolve: null })
    const silent = [T, T + 60 * MINUTE, T + 61 * MINUTE]
    expect(faults(3 * MINUTE, silent, timeline(3 * MINUTE, silent, unresolved))).toContainEqual(
      expect.stringMatching(/never resolved|fired twice/),
    )
  })
})
