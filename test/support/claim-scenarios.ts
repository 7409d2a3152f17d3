import { expect, it } from "vitest"
import type { RunEnding } from "../../src/infra/jobs/contract/record.ts"
import { CLOCK_TOLERANCE_MS, UNKNOWN_LEASE_MS } from "../../src/infra/jobs/protocol/slot-claim.ts"
import type { ClaimEngine } from "./claim-engine.ts"

export type { ClaimEngine } from "./claim-engine.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const LEASE = 2 * MINUTE
// Epoch milliseconds of 2026: past 2^31, so a 32-bit column would overflow.
const T0 = Date.UTC(2026, 10, 30, 3, 0)

let counter = 0

/** How a run of `slot` ended, as its release records it. */
const ended = (slot: number, runId: string): RunEnding => ({
  record: { slot, runId, outcome: "ran", ms: 5, finishedAt: slot + 5, error: null },
  summary: null,
})

/**
 * The claim scenarios of seed Decision 5, registered once per engine, so D1 (workerd), libSQL and
 * Postgres (Node) answer the same statement the same way. `now` stands in for the database's clock,
 * the claim's referee; a claimant's clock shows only in the slot it fires. The last scenario reads the
 * database's own clock.
 */
export function claimScenarios(engine: () => ClaimEngine) {
  const fresh = () => `engines.job-${Date.now()}-${++counter}`
  const claim = (name: string, slot: number, now: number, holder: string, leaseMs = LEASE) =>
    engine().claim({ name, slot, now, leaseMs, holder })
  /** A run of `slot` from claim to release (which records it), the database's clock at `now`; true if it ran. */
  const run = async (name: string, slot: number, now: number) => {
    const holder = `run-${slot}-${now}`
    const won = await claim(name, slot, now, holder)
    if (won) expect(await engine().release(name, holder, ended(slot, holder))).toBe(true)
    return won
  }

  it("lets the first claim of a slot win, its lease the database's now + lease with the lease beside it", async () => {
    const name = fresh()
    expect(await claim(name, T0, T0 + 5, "run-a")).toBe(true)
    expect(await engine().lease(name)).toEqual({
      lastSlot: T0,
      leaseUntil: T0 + 5 + LEASE,
      leaseMs: LEASE,
      holder: "run-a",
      lastRunId: null,
    })
  })

  it("never claims a slot at or below last_slot, released or not, whatever the database's clock says", async () => {
    const name = fresh()
    await claim(name, T0 + MINUTE, T0 + MINUTE, "run-a")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE + 1, "run-b")).toBe(false)
    await engine().release(name, "run-a")
    // So a run holding its lease always holds last_slot: no claim lands below it (an operator's release relies on it).
    for (const slot of [T0 + MINUTE, T0])
      for (const now of [T0 - DAY, T0 + 1, T0 + MINUTE + 1, T0 + 2 * LEASE + 1, T0 + DAY])
        expect(await claim(name, slot, now, `late-${slot}-${now}`), `${slot} at ${now}`).toBe(false)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + MINUTE, holder: null })
  })

  it("refuses a newer slot while the lease is live, and claims it once the lease has expired", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
    expect(await claim(name, T0 + 2 * MINUTE, T0 + LEASE, "run-c")).toBe(false)
    expect((await engine().lease(name))?.holder).toBe("run-a")
    expect(await claim(name, T0 + 2 * MINUTE, T0 + LEASE + 1, "run-d")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + 2 * MINUTE, holder: "run-d" })
  })

  it("judges a live lease by the lease its holder wrote, not the claimant's: a shorter timeout waits, the older run is recorded", async () => {
    const name = fresh()
    // The job's previous version (timeout 10 minutes, lease 11) holds its lease; the new one has a 90 s lease.
    const older = 11 * MINUTE
    const newer = 90_000
    expect(await claim(name, T0, T0 + 1_000, "older-run", older)).toBe(true)
    for (const k of [1, 5, 10])
      expect(await claim(name, T0 + k * MINUTE, T0 + k * MINUTE + 1_000, `newer-${k}`, newer), `${k}`).toBe(false)
    expect(await engine().lease(name)).toMatchObject({ holder: "older-run", leaseUntil: T0 + 1_000 + older })
    expect(await engine().release(name, "older-run", ended(T0, "older-run"))).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ holder: null, lastRunId: "older-run" })
    expect(await claim(name, T0 + 11 * MINUTE, T0 + 11 * MINUTE + 1_000, "newer-11", newer)).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ holder: "newer-11", leaseMs: newer })
  })

  it("reclaims a lease ending more than twice its own lease past the database's now (its clock went back), never one within", async () => {
    const name = fresh()
    // A late fire claims at 03:10 and holds its lease until 03:12.
    expect(await claim(name, T0, T0 + 10 * MINUTE, "late-run")).toBe(true)
    // The database's clock goes back to 03:08: the lease ends exactly 2 x its lease past now, held, even
    // for a claimant whose own lease is 30 s; 1 ms further back, it cannot have been written honestly.
    expect(await claim(name, T0 + MINUTE, T0 + 8 * MINUTE, "short-lease", 30_000)).toBe(false)
    expect(await claim(name, T0 + MINUTE, T0 + 8 * MINUTE - 1, "reclaimer")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + MINUTE, holder: "reclaimer" })
  })

  it("judges a lease without lease_ms (0.1.0's claim wrote it during a rollout) as the longest lease, 16 minutes", async () => {
    const name = fresh()
    expect(UNKNOWN_LEASE_MS).toBe(16 * MINUTE)
    // 0.1.0's claim at 03:00 with a 2-minute lease: held until it ends, whatever the claimant's lease.
    await engine().put(name, { lastSlot: T0, leaseUntil: T0 + LEASE, leaseMs: null, holder: "v010-run" })
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "short", 30_000)).toBe(false)
    expect(await claim(name, T0 + MINUTE, T0 + LEASE, "at-its-end")).toBe(false)
    expect(await claim(name, T0 + 2 * MINUTE, T0 + LEASE + 1, "after-it")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ holder: "after-it", leaseMs: LEASE })
    // A lease 0.1.0 wrote from a clock far ahead: reclaimed once it ends more than 2 x 16 minutes past now.
    const far = fresh()
    await engine().put(far, { lastSlot: T0, leaseUntil: T0 + 40 * MINUTE, leaseMs: null, holder: "ahead" })
    expect(await claim(far, T0 + MINUTE, T0 + 8 * MINUTE, "within")).toBe(false)
    expect(await claim(far, T0 + MINUTE, T0 + 8 * MINUTE - 1, "reclaimer")).toBe(true)
    expect(await engine().lease(far)).toMatchObject({ lastSlot: T0 + MINUTE, holder: "reclaimer", leaseMs: LEASE })
  })

  it("refuses a slot more than CLOCK_TOLERANCE_MS past the database's now as not yet due, first claim included", async () => {
    const name = fresh()
    // A claimant's clock ahead of the database's, or the database's behind it: the same difference.
    expect(await claim(name, T0, T0 - CLOCK_TOLERANCE_MS - 1, "too-early")).toBe(false)
    expect(await engine().lease(name)).toBeUndefined()
    expect(await claim(name, T0, T0 - CLOCK_TOLERANCE_MS, "early")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0, holder: "early" })
  })

  it("lets no clock far ahead block a slot, first claim included, nor a second clock further ahead", async () => {
    const name = fresh()
    // On a fresh row, a replica a day ahead fires first: not yet due by the database's clock, nothing written.
    expect(await run(name, T0 + DAY, T0 + 500)).toBe(false)
    expect(await engine().lease(name)).toBeUndefined()
    // Ten real minutes: the replicas a day and two days ahead fire around each correct one, which runs every slot.
    for (let k = 0; k < 10; k++) {
      const minute = T0 + k * MINUTE
      expect(await run(name, minute + DAY, minute + 200), `a day ahead, minute ${k}`).toBe(false)
      expect(await run(name, minute, minute + 1_000), `on time, minute ${k}`).toBe(true)
      expect(await run(name, minute + 2 * DAY, minute + 1_500), `two days ahead, minute ${k}`).toBe(false)
    }
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + 9 * MINUTE, holder: null })
  })

  it("runs a slot early, once, from a clock ahead within the tolerance, and late from a clock behind, never one already run", async () => {
    const name = fresh()
    expect(await run(name, T0, T0 + 1_000)).toBe(true)
    // A replica 4 s ahead fires the next minute before the database's clock reaches it; the others' fire is refused.
    expect(await run(name, T0 + MINUTE, T0 + MINUTE - 4_000)).toBe(true)
    expect(await run(name, T0 + MINUTE, T0 + MINUTE + 1_000)).toBe(false)
    // A replica 3 minutes behind runs a slot no one ran, late; a slot already run it finds taken.
    expect(await run(name, T0 + 2 * MINUTE, T0 + 5 * MINUTE + 1_000)).toBe(true)
    expect(await run(name, T0 + 6 * MINUTE, T0 + 6 * MINUTE + 1_000)).toBe(true)
    expect(await run(name, T0 + 6 * MINUTE, T0 + 9 * MINUTE + 1_000)).toBe(false)
    expect(await run(name, T0 + 5 * MINUTE, T0 + 8 * MINUTE + 1_000)).toBe(false)
  })

  it("bounds a jump of the database's own clock: ahead and back refuses the slots until its newest, none twice; forward ends a lease early", async () => {
    const name = fresh()
    expect(await run(name, T0, T0 + 1_000)).toBe(true)
    // One host's clock (the claimant's and the database's) jumps a day ahead: a slot runs a day early.
    expect(await run(name, T0 + DAY + MINUTE, T0 + DAY + MINUTE + 1_000)).toBe(true)
    // Set right, the slots up to that one are refused (lost), and it does not run again on time.
    expect(await run(name, T0 + 2 * MINUTE, T0 + 2 * MINUTE + 1_000)).toBe(false)
    expect(await run(name, T0 + DAY, T0 + DAY + 1_000)).toBe(false)
    expect(await run(name, T0 + DAY + MINUTE, T0 + DAY + MINUTE + 1_000)).toBe(false)
    expect(await run(name, T0 + DAY + 2 * MINUTE, T0 + DAY + 2 * MINUTE + 1_000)).toBe(true)
    // A jump forward past a live lease ends it: the next slot is claimed while its holder may still run.
    const next = T0 + DAY + 3 * MINUTE
    expect(await claim(name, next, next + 1_000, "holder")).toBe(true)
    expect(await claim(name, next + MINUTE, next + MINUTE + 1_000, "before-the-jump")).toBe(false)
    expect(await claim(name, next + MINUTE, next + MINUTE + HOUR, "after-the-jump")).toBe(true)
  })

  it("ignores a release by another holder", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    expect(await engine().release(name, "run-b", ended(T0, "run-b"))).toBe(false)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0, leaseUntil: T0 + LEASE, holder: "run-a" })
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
    expect(await engine().release(name, "run-a")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0, leaseUntil: null, holder: null, lastRunId: null })
  })

  it("keeps the slot of a lease it takes from a holder that never released it, newest first, and no released one", async () => {
    const name = fresh()
    expect(await run(name, T0, T0)).toBe(true)
    // run-b never releases (its release failed); run-c takes the expired lease, then is released.
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(true)
    expect(await run(name, T0 + 4 * MINUTE, T0 + 4 * MINUTE)).toBe(true)
    expect(await engine().unreleased(name)).toEqual([T0 + MINUTE])
    expect(await claim(name, T0 + 5 * MINUTE, T0 + 5 * MINUTE, "run-d")).toBe(true)
    expect(await claim(name, T0 + 8 * MINUTE, T0 + 8 * MINUTE, "run-e")).toBe(true)
    expect(await engine().unreleased(name)).toEqual([T0 + 5 * MINUTE, T0 + MINUTE])
    // A long outage of releases keeps the newest, within a bound; only the last may be cut short, never to a slot.
    for (let i = 1; i <= 40; i++) await claim(name, T0 + (8 + 3 * i) * MINUTE, T0 + (8 + 3 * i) * MINUTE, `run-${i}`)
    const kept = await engine().unreleased(name)
    const whole = kept.filter((slot) => String(slot).length === String(T0).length)
    expect(whole.length).toBeGreaterThanOrEqual(20)
    expect(kept.length - whole.length).toBeLessThanOrEqual(1)
    for (const [i, slot] of whole.entries()) expect(slot).toBe(T0 + (8 + 3 * (39 - i)) * MINUTE)
    expect((kept.at(-1) as number) < T0 || kept.length === whole.length).toBe(true)
  })

  it("keeps the slot of a lease an operator releases before its run did, and none of a run released first", async () => {
    const name = fresh()
    expect(await run(name, T0, T0)).toBe(true)
    expect(await engine().forceRelease(name)).toBe(true)
    expect(await engine().unreleased(name)).toEqual([])
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(true)
    expect(await engine().forceRelease(name)).toBe(true)
    expect(await engine().unreleased(name)).toEqual([T0 + MINUTE])
    // The run still records itself after the operator's release; the next claim keeps nothing more.
    expect(await engine().release(name, "run-b", ended(T0 + MINUTE, "run-b"))).toBe(true)
    expect(await claim(name, T0 + 2 * MINUTE, T0 + 2 * MINUTE, "run-c")).toBe(true)
    expect(await engine().unreleased(name)).toEqual([T0 + MINUTE])
  })

  it("gives exactly one winner among 20 concurrent claims of one slot", async () => {
    const name = fresh()
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(name, T0, T0 + i, `run-${i}`)))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect((await engine().lease(name))?.holder).toBe(`run-${results.indexOf(true)}`)
  })

  it("reads the database's own clock when no clock stands in: a slot far ahead refused, the one due won once, its lease from then", async () => {
    const name = fresh()
    const request = (holder: string, slot: number) => ({ name, slot, leaseMs: LEASE, holder })
    expect(await engine().claim(request("an-hour-ahead", Date.now() + CLOCK_TOLERANCE_MS + HOUR))).toBe(false)
    expect(await engine().lease(name)).toBeUndefined()
    const before = Date.now()
    const slot = before - (before % MINUTE)
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => engine().claim(request(`run-${i}`, slot))))
    const after = Date.now()
    expect(results.filter(Boolean)).toHaveLength(1)
    const lease = await engine().lease(name)
    expect(lease).toMatchObject({ lastSlot: slot, leaseMs: LEASE, holder: `run-${results.indexOf(true)}` })
    // The database's clock and this one agree within the tolerance, as the claim requires of its claimants.
    expect(lease?.leaseUntil).toBeGreaterThanOrEqual(before + LEASE - CLOCK_TOLERANCE_MS)
    expect(lease?.leaseUntil).toBeLessThanOrEqual(after + LEASE + CLOCK_TOLERANCE_MS)
  })
}
