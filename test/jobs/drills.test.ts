import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { type Job, Jobs } from "../../src/infra/jobs/index.ts"
import { rollUpUsage } from "../../src/slices/billing/index.ts"
import { recordUsage, usageTotalOf } from "../../src/slices/billing/queries.ts"
import { failingD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"

const logs = captureLogs()
const db = database(env.DB)
const MINUTE = 60_000
// Far from the other billing tests' slots, so no other run rolls these events up; runs stand in the
// database's clock a second past their slot (the real one would refuse a slot of 2099 as not yet due).
const S0 = Date.UTC(2099, 5, 1, 12, 0)
const slot = (k: number) => new Date(S0 + k * MINUTE)
const onTime = (k: number) => ({ now: () => slot(k).getTime() + 1_000 })
const leaseOf = (name: string) => db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()

/** A job that counts its runs per slot and how many overlap; hold(runId) keeps that one run inside until release(). */
function countingJob(name: string, timeout: number) {
  const runs = new Map<string, number>()
  let inFlight = 0
  let peak = 0
  let open: () => void = () => {}
  let gate: Promise<void> | undefined
  let held: string | undefined
  const job = Jobs.make({
    name,
    cron: "* * * * *",
    exclusive: true,
    timeout,
    run: async (s, ctx) => {
      runs.set(s.toISOString(), (runs.get(s.toISOString()) ?? 0) + 1)
      peak = Math.max(peak, ++inFlight)
      try {
        if (held === undefined || ctx.runId === held) await gate
      } finally {
        inFlight--
      }
    },
  })
  return {
    job,
    runs,
    peak: () => peak,
    total: () => [...runs.values()].reduce((a, b) => a + b, 0),
    hold: (runId?: string) => {
      held = runId
      gate = new Promise((resolve) => {
        open = resolve
      })
    },
    release: () => open(),
  }
}

describe("drill: D1 down for a stretch of slots", () => {
  it("gives each slot up with one log line, and the first healthy slot processes everything due as of it", async () => {
    // The billing slice's real roll-up, under its own lease name.
    const job: Job = Jobs.make({
      name: "drill.roll-up-usage",
      cron: rollUpUsage.cron,
      exclusive: true,
      timeout: rollUpUsage.timeoutMs,
      run: rollUpUsage.run,
    })
    const account = "drill-outage"
    // One usage event due in each minute of the outage, one at the healing slot, one after it.
    for (let k = 0; k <= 5; k++) await recordUsage(db, account, 10 ** k, slot(k).getTime())

    const outage = failingD1(env.DB)
    const down = { env: { ...env, DB: outage.db } }
    const downSlots = [0, 1, 2, 3]
    for (const k of downSlots) {
      expect(await Jobs.run(job, slot(k), { ...down, ...onTime(k), runId: `down-${k}` })).toMatchObject({
        status: "skipped",
      })
    }
    // One claim attempt per slot, never retried in process, and nothing else asked of D1.
    expect(outage.calls).toHaveLength(downSlots.length)
    expect(outage.calls.every((query) => query.includes("jobs_leases"))).toBe(true)
    expect(logs.lines).toEqual(
      downSlots.map((k) =>
        expect.objectContaining({
          level: "error",
          message: "job.run",
          job: job.name,
          slot: slot(k).toISOString(),
          runId: `down-${k}`,
          outcome: "skipped",
          reason: "claim failed",
          error: expect.stringContaining("D1_ERROR"),
        }),
      ),
    )
    expect(await leaseOf(job.name)).toBeUndefined()
    expect(await usageTotalOf(db, account)).toBeUndefined()

    logs.lines.length = 0
    expect((await Jobs.run(job, slot(4), { env, ...onTime(4) })).status).toBe("ran")
    // Everything due as of the healing slot, the missed minutes included; nothing after it.
    expect(await usageTotalOf(db, account)).toEqual({ account, quantity: 11_111, throughSlot: slot(4).getTime() })
    expect(await leaseOf(job.name)).toMatchObject({ lastSlot: slot(4).getTime(), holder: null })
    expect(logs.of("job.run")).toEqual([expect.objectContaining({ outcome: "ran", slot: slot(4).toISOString() })])

    // The missed slots stay given up: a late fire of one of them is refused.
    expect((await Jobs.run(job, slot(2), { env, ...onTime(5) })).status).toBe("skipped")
    expect((await Jobs.run(job, slot(5), { env, ...onTime(5) })).status).toBe("ran")
    expect((await usageTotalOf(db, account))?.quantity).toBe(111_111)
  })
})

describe("drill: 100 concurrent heartbeats", () => {
  it("run an exclusive job exactly once for their slot", async () => {
    const counter = countingJob("drill.heartbeats", 5_000)
    const nonExclusiveRuns: string[] = []
    const shared = Jobs.make({
      name: "drill.heartbeats-shared",
      cron: "* * * * *",
      exclusive: false,
      timeout: 5_000,
      run: (s) => void nonExclusiveRuns.push(s.toISOString()),
    })
    counter.hold()
    // Every scheduled time falls in the same minute, as duplicate or retried fires would.
    const beats = Array.from({ length: 100 }, (_, i) =>
      beat([counter.job, shared], S0 + 10 * MINUTE + (i % 60) * 1_000 + i, env, onTime(10)),
    )
    // Hold the winner inside its run while the others claim, so they race a live lease too.
    await new Promise((resolve) => setTimeout(resolve, 50))
    counter.release()
    const results = (await Promise.all(beats)).flat().filter((r) => r.job === counter.job.name)

    expect(counter.total()).toBe(1)
    expect(counter.runs).toEqual(new Map([[slot(10).toISOString(), 1]]))
    expect(results.map((r) => r.status).sort()).toEqual(["ran", ...Array(99).fill("skipped")])
    // Best effort is not exclusive: the shared job ran in every heartbeat.
    expect(nonExclusiveRuns).toHaveLength(100)
    // The 99 losers did nothing and logged nothing.
    expect(logs.of("job.run").filter((line) => line.job === counter.job.name)).toEqual([
      expect.objectContaining({ outcome: "ran", slot: slot(10).toISOString() }),
    ])
    expect(await leaseOf(counter.job.name)).toMatchObject({ lastSlot: slot(10).getTime(), holder: null })
  })
})

describe("drill: the database's clock jumping across a live lease", () => {
  // timeout 1 minute: the lease is 2 minutes.
  const LEASE = 2 * MINUTE

  it("never runs a slot twice and never overlaps a lease held within [now, now + 2 x lease]", async () => {
    const counter = countingJob("drill.clock", MINUTE)
    const { job } = counter
    expect(job.leaseMs).toBe(LEASE)
    const at = (k: number, now: number, runId: string) => Jobs.run(job, slot(k), { env, now: () => now, runId })

    counter.hold("holder")
    const writtenAt = slot(20).getTime() + 1_000
    const holder = at(20, writtenAt, "holder")
    await expect.poll(() => counter.total()).toBe(1)
    const leaseUntil = writtenAt + LEASE
    expect(await leaseOf(job.name)).toMatchObject({ lastSlot: slot(20).getTime(), leaseUntil, holder: "holder" })

    // `now` is the database's clock: the claim's referee.
    const attempts = [
      // The same slot, the clock far ahead (the lease looks long expired) and far behind (the lease
      // looks written while it ran ahead): last_slot refuses both.
      at(20, leaseUntil + 10 * LEASE, "same-slot-ahead"),
      at(20, writtenAt - 365 * 24 * 60 * MINUTE, "same-slot-behind"),
      // Later slots while the lease is live, the clock a little ahead...
      at(21, slot(21).getTime() + 30_000, "ahead"),
      at(22, leaseUntil - 1, "just-before-expiry"),
      // ...and gone back, up to exactly one lease (lease_until = now + 2 x lease): not yet due, or held.
      at(23, writtenAt - 1, "behind"),
      at(24, leaseUntil - 2 * LEASE, "one-lease-behind"),
    ]
    for (const result of await Promise.all(attempts)) expect(result.status).toBe("skipped")
    expect(await leaseOf(job.name)).toMatchObject({ lastSlot: slot(20).getTime(), leaseUntil, holder: "holder" })

    counter.release()
    expect((await holder).status).toBe("ran")
    expect(counter.peak()).toBe(1)

    // Released, the lease no longer blocks; the slot itself stays claimed, at any time; a slot is run once due.
    expect((await at(20, writtenAt + 5 * MINUTE, "after-release")).status).toBe("skipped")
    expect((await at(25, slot(25).getTime() - 3 * MINUTE, "not-yet-due")).status).toBe("skipped")
    expect((await at(25, slot(25).getTime() + 1_000, "next")).status).toBe("ran")
    expect(counter.runs).toEqual(
      new Map([
        [slot(20).toISOString(), 1],
        [slot(25).toISOString(), 1],
      ]),
    )
    // Losing a claim to a slot taken is silent; one refused by the live lease of slot 20's run warns once, naming it.
    const lines = logs.of("job.run")
    expect(lines.filter((line) => line.level !== "warn").map((line) => line.runId)).toEqual(["holder", "next"])
    expect(lines.filter((line) => line.level === "warn")).toEqual(
      ["ahead", "just-before-expiry", "behind", "one-lease-behind"].map((runId) =>
        expect.objectContaining({
          runId,
          reason: "lease held",
          heldBy: { slot: slot(20).toISOString(), runId: "holder" },
        }),
      ),
    )
  })

  it("reclaims a lease written while the database's clock ran ahead, exactly when it ends beyond now + 2 x its lease", async () => {
    const counter = countingJob("drill.jumped", MINUTE)
    const { job } = counter
    // The run's release fails, as a crash would leave it: the lease it was given stays.
    const releaseFails = { env: { ...env, DB: failingD1(env.DB, (query) => query.startsWith("update")).db } }
    const yearAhead = slot(30).getTime() + 365 * 24 * 60 * MINUTE
    expect((await Jobs.run(job, slot(30), { ...releaseFails, now: () => yearAhead })).status).toBe("ran")
    expect(await leaseOf(job.name)).toMatchObject({ lastSlot: slot(30).getTime(), leaseUntil: yearAhead + LEASE })

    // The clock set right, the next slot does not wait a year.
    const result = await Jobs.run(job, slot(31), { env, ...onTime(31), runId: "reclaimer" })
    expect(result.status).toBe("ran")
    expect(await leaseOf(job.name)).toMatchObject({
      name: job.name,
      lastSlot: slot(31).getTime(),
      leaseUntil: null,
      holder: null,
    })

    // The boundary, on a late fire's lease (claimed 5 minutes after its slot) and the clock gone back:
    // held at exactly now + 2 x lease, reclaimed 1 ms past it.
    const written = slot(32).getTime() + 5 * MINUTE
    expect((await Jobs.run(job, slot(32), { ...releaseFails, now: () => written })).status).toBe("ran")
    expect((await leaseOf(job.name))?.leaseUntil).toBe(written + LEASE)
    expect((await Jobs.run(job, slot(33), { env, now: () => written - LEASE })).status).toBe("skipped")
    expect((await Jobs.run(job, slot(33), { env, now: () => written - LEASE - 1 })).status).toBe("ran")
    expect(counter.runs).toEqual(new Map([30, 31, 32, 33].map((k) => [slot(k).toISOString(), 1])))
  })
})

describe("drill: a deploy that shortens a job's timeout while a run of the previous version holds its lease", () => {
  it("refuses the new version's slots while that lease lives, and records the previous run's outcome", async () => {
    // Both versions share the name, so the lease row; the previous one's run is held inside until released.
    const previous = countingJob("drill.redeployed", 10 * MINUTE)
    const next = Jobs.make({ ...previous.job, timeout: "30 seconds", run: () => {} })
    expect([previous.job.leaseMs, next.leaseMs]).toEqual([11 * MINUTE, 90_000])
    previous.hold("previous-run")
    const holding = Jobs.run(previous.job, slot(40), { env, ...onTime(40), runId: "previous-run" })
    await expect.poll(() => previous.total()).toBe(1)

    // One minute on, and until the previous lease ends, the new version finds the lease held, and says so.
    for (const k of [41, 45, 50]) {
      expect(await Jobs.run(next, slot(k), { env, ...onTime(k) }), `slot ${k}`).toMatchObject({
        status: "skipped",
        reason: "lease held",
      })
    }
    expect(logs.of("job.run").filter((line) => line.level === "warn")).toEqual(
      [41, 45, 50].map((k) =>
        expect.objectContaining({
          slot: slot(k).toISOString(),
          heldBy: { slot: slot(40).toISOString(), runId: "previous-run" },
        }),
      ),
    )
    previous.release()
    expect(await holding).toMatchObject({ status: "ran", runId: "previous-run" })
    expect(await leaseOf(next.name)).toMatchObject({ lastSlot: slot(40).getTime(), lastRunId: "previous-run" })
    expect((await Jobs.run(next, slot(51), { env, ...onTime(51) })).status).toBe("ran")
  })
})
