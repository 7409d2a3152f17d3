import { describe, expect, it } from "vitest"
import type { JobLease } from "../../src/infra/db/index.ts"
import { liveness } from "../../src/infra/jobs/history/liveness.ts"
import { timeline } from "../../src/infra/jobs/history/timeline.ts"
import { Jobs, type RunRecord } from "../../src/infra/jobs/index.ts"

const MINUTE = 60_000
const T0 = Date.UTC(2026, 10, 30, 10, 0)
const at = (minutes: number) => T0 + minutes * MINUTE
const job = (cron: string, exclusive = true) =>
  Jobs.make({ name: "timeline.job", cron, exclusive, timeout: 1_000, run: () => {} })

const run = (minute: number, outcome: RunRecord["outcome"] = "ran"): RunRecord => ({
  slot: at(minute),
  runId: `r-${minute}`,
  outcome,
  ms: 5,
  finishedAt: at(minute) + 5,
  error: outcome === "failed" ? "Error: boom" : null,
})

/** A lease row as the release leaves it: `runs` oldest first, as run_history stores them. */
const lease = (runs: RunRecord[], lastSlot = runs.at(-1)?.slot ?? 0, leaseUntil: number | null = null): JobLease => ({
  name: "timeline.job",
  lastSlot,
  leaseUntil,
  holder: leaseUntil === null ? null : "holder",
  leaseMs: leaseUntil === null ? null : 2 * MINUTE,
  lastRunSlot: null,
  lastRunId: null,
  lastOutcome: null,
  lastMs: null,
  lastFinishedAt: null,
  lastError: null,
  lastSummary: null,
  runHistory: JSON.stringify(runs),
  hourStart: null,
  hourRuns: null,
  hourMaxMs: null,
  unreleasedSlots: null,
})

const statuses = (entries: ReturnType<typeof timeline>) => entries.map((e) => [(e.slot - T0) / MINUTE, e.status])

describe("a job's timeline", () => {
  // Issue 45: a run whose release failed, once a later claim took its lease, ran: its slot is unrecorded, never missed.
  it("shows a slot a claim won and no release recorded as unrecorded, after a later slot was claimed", () => {
    const row = { ...lease([run(0), run(4)]), unreleasedSlots: `${at(2)},${at(1)}` }
    expect(statuses(timeline(job("* * * * *"), row, at(5) + 30_000))).toEqual([
      [4, "ran"],
      [3, "missed"],
      [2, "unrecorded"],
      [1, "unrecorded"],
      [0, "ran"],
    ])
    // The list's oldest number, cut short by its bound, names no slot.
    const cut = { ...row, unreleasedSlots: `${at(2)},${String(at(1)).slice(0, 6)}` }
    expect(statuses(timeline(job("* * * * *"), cut, at(5) + 30_000))).toContainEqual([1, "missed"])
  })

  it("shows the slots the cron named but no run took as missed gaps between the recorded runs", () => {
    const recorded = lease([run(0), run(1, "failed"), run(4), run(5, "timed-out")])
    expect(statuses(timeline(job("* * * * *"), recorded, at(6) + 30_000))).toEqual([
      [5, "timed-out"],
      [4, "ran"],
      [3, "missed"],
      [2, "missed"],
      [1, "failed"],
      [0, "ran"],
    ])
    const entry = timeline(job("* * * * *"), recorded, at(6) + 30_000).find((e) => e.status === "failed")
    expect(entry?.run).toEqual(run(1, "failed"))
  })

  it("counts a slot missed only a minute after it began, so the current one is not yet a gap", () => {
    const recorded = lease([run(0)])
    expect(statuses(timeline(job("* * * * *"), recorded, at(2) - 1))).toEqual([[0, "ran"]])
    expect(statuses(timeline(job("* * * * *"), recorded, at(2) + 1))).toEqual([
      [1, "missed"],
      [0, "ran"],
    ])
  })

  it("shows the slot a run still holds as running, and one claimed but never recorded as unrecorded", () => {
    const held = lease([run(0)], at(3), at(3) + 2 * MINUTE)
    expect(statuses(timeline(job("* * * * *"), held, at(3) + 10_000))).toEqual([
      [3, "running"],
      [2, "missed"],
      [1, "missed"],
      [0, "ran"],
    ])
    const gone = lease([run(0)], at(1), null)
    expect(statuses(timeline(job("* * * * *"), gone, at(1) + 30_000))).toEqual([
      [1, "unrecorded"],
      [0, "ran"],
    ])
  })

  it("includes a run-now slot the cron does not name, and knows nothing before the oldest record", () => {
    const daily = job("0 3 * * *")
    // Run now at 10:07; the 03:00 slots before it were never recorded, so they are not gaps.
    const recorded = lease([run(7)])
    expect(statuses(timeline(daily, recorded, at(60)))).toEqual([[7, "ran"]])
    expect(timeline(daily, undefined, at(60))).toEqual([])
  })

  it("keeps the newest slots up to its length", () => {
    const recorded = lease(Array.from({ length: 20 }, (_, i) => run(i)))
    const entries = timeline(job("* * * * *"), recorded, at(30) - 1, 10)
    expect(statuses(entries)).toEqual([...Array.from({ length: 9 }, (_, i) => [28 - i, "missed"]), [19, "ran"]])
  })
})

describe("the heartbeat's liveness", () => {
  const watchdog = job("* * * * *")
  const nightly = job("0 3 * * *")
  const fired = (minute: number) => [{ lastSlot: at(minute) }]

  it("is alive while the every-minute job's last fire is at most 2 minutes old, late after", () => {
    expect(liveness([watchdog], fired(0), at(2))).toEqual({
      status: "alive",
      lastFiredAt: at(0),
      missedSlot: null,
      aheadSlot: null,
    })
    expect(liveness([watchdog], fired(0), at(2) + 1)).toEqual({
      status: "late",
      lastFiredAt: at(0),
      missedSlot: at(1),
      aheadSlot: null,
    })
  })

  it("says ahead for a slot claimed more than a minute in the future, and judges the last fire by the other rows", () => {
    const tomorrow = at(0) + 86_400_000
    // A slot claimed while the database's clock ran a day ahead; another job's row shows the last fire.
    const leases = [{ lastSlot: tomorrow }, { lastSlot: at(0) }]
    expect(liveness([watchdog], leases, at(1))).toEqual({
      status: "ahead",
      lastFiredAt: at(0),
      missedSlot: null,
      aheadSlot: tomorrow,
    })
    expect(liveness([watchdog], [{ lastSlot: at(2) }], at(1)).status).toBe("alive")
    expect(liveness([watchdog], [{ lastSlot: at(2) + 1 }], at(1))).toMatchObject({
      status: "ahead",
      lastFiredAt: null,
      aheadSlot: at(2) + 1,
    })
  })

  it("judges a nightly job by its own next slot: alive all day, late a minute after its slot went unclaimed", () => {
    const lastNight = Date.UTC(2026, 10, 30, 3, 0)
    const tonight = lastNight + 86_400_000
    const leases = [{ lastSlot: lastNight }]
    expect(liveness([nightly], leases, lastNight + 20 * 3_600_000).status).toBe("alive")
    expect(liveness([nightly], leases, tonight + MINUTE).status).toBe("alive")
    expect(liveness([nightly], leases, tonight + MINUTE + 1)).toMatchObject({ status: "late", missedSlot: tonight })
  })

  it("is unknown with no exclusive job declared or no slot claimed yet", () => {
    expect(liveness([job("* * * * *", false)], fired(0), at(10)).status).toBe("unknown")
    expect(liveness([watchdog], [], at(10))).toEqual({
      status: "unknown",
      lastFiredAt: null,
      missedSlot: null,
      aheadSlot: null,
    })
  })
})
