import { expect, it } from "vitest"
import type { ClaimRequest } from "../../src/infra/jobs/claim.ts"

/** One database the claim statement runs on: D1, libSQL or Postgres, each through its own driver. */
export interface ClaimEngine {
  claim(request: ClaimRequest): Promise<boolean>
  /** Ends the lease if `holder` holds it (the engine's release on D1 and libSQL). */
  release(name: string, holder: string): Promise<boolean>
  lease(name: string): Promise<{ lastSlot: number; leaseUntil: number | null; holder: string | null } | undefined>
}

const MINUTE = 60_000
const LEASE = 2 * MINUTE
const DAY = 24 * 60 * MINUTE
// Epoch milliseconds of 2026: past 2^31, so a 32-bit column would overflow.
const T0 = Date.UTC(2026, 10, 30, 3, 0)

let counter = 0

/**
 * The claim scenarios of seed Decision 5, registered once per engine, so D1 (workerd), libSQL and
 * Postgres (Node) answer the same statement the same way.
 */
export function claimScenarios(engine: () => ClaimEngine) {
  const fresh = () => `engines.job-${Date.now()}-${++counter}`
  const claim = (name: string, slot: number, now: number, holder: string) =>
    engine().claim({ name, slot, now, leaseMs: LEASE, holder })

  it("lets the first claim of a slot win, with epoch-ms values past 32 bits", async () => {
    const name = fresh()
    expect(await claim(name, T0, T0 + 5, "run-a")).toBe(true)
    expect(await engine().lease(name)).toEqual({ lastSlot: T0, leaseUntil: T0 + 5 + LEASE, holder: "run-a" })
  })

  it("refuses the same slot again, also after its release", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    expect(await claim(name, T0, T0 + 1, "run-b")).toBe(false)
    await engine().release(name, "run-a")
    expect(await claim(name, T0, T0 + 2, "run-c")).toBe(false)
  })

  it("refuses a newer slot while the lease is live", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
    expect((await engine().lease(name))?.holder).toBe("run-a")
  })

  it("reclaims an expired lease for a newer slot", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    expect(await claim(name, T0 + 3 * MINUTE, T0 + LEASE + 1, "run-b")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + 3 * MINUTE, holder: "run-b" })
  })

  it("reclaims a lease written far ahead by a clock that jumped, never a live one within 2 x lease", async () => {
    const jumped = fresh()
    await claim(jumped, T0, T0 + 365 * 24 * 60 * MINUTE, "run-from-the-future")
    expect(await claim(jumped, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(true)
    const live = fresh()
    await claim(live, T0, T0 + LEASE, "run-a")
    expect(await claim(live, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
  })

  it("reclaims, at the next slot, a last_slot a clock that jumped wrote more than 2 x lease ahead", async () => {
    const name = fresh()
    await claim(name, T0, T0 + 1_000, "run-a")
    await engine().release(name, "run-a")
    // A replica a day ahead claims tomorrow's slot and keeps its lease (it crashed, say).
    expect(await claim(name, T0 + DAY, T0 + DAY + 1_000, "run-ahead")).toBe(true)
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE + 1_000, "run-b")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ holder: "run-b", leaseUntil: T0 + MINUTE + 1_000 + LEASE })
    // The slots after it too, while the fast replica goes on claiming its own, one after another.
    expect(await claim(name, T0 + DAY + MINUTE, T0 + DAY + MINUTE, "run-ahead-2")).toBe(true)
    await engine().release(name, "run-ahead-2")
    expect(await claim(name, T0 + DAY + 2 * MINUTE, T0 + DAY + 2 * MINUTE, "run-ahead-3")).toBe(true)
    expect(await claim(name, T0 + 2 * MINUTE, T0 + 2 * MINUTE + 1_000, "run-c")).toBe(true)
  })

  it("never lets a slot claimed before or after a jumped last_slot run again, on time or late", async () => {
    const name = fresh()
    await claim(name, T0, T0 + 1_000, "run-a")
    // The fast replica overwrites run-a's live lease; the same slot from another correct replica, and later, is refused.
    expect(await claim(name, T0 + DAY, T0 + DAY, "run-ahead")).toBe(true)
    expect(await claim(name, T0, T0 + 1_500, "run-b")).toBe(false)
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE + 1_000, "run-c")).toBe(true)
    expect(await claim(name, T0 + DAY + MINUTE, T0 + DAY + MINUTE, "run-ahead-2")).toBe(true)
    await engine().release(name, "run-ahead-2")
    expect(await claim(name, T0 + DAY + 2 * MINUTE, T0 + DAY + 2 * MINUTE, "run-ahead-3")).toBe(true)
    for (const [slot, now] of [
      [T0, T0 + 5 * MINUTE],
      [T0 + MINUTE, T0 + MINUTE + 2_000],
      [T0 + MINUTE, T0 + 30 * MINUTE],
    ] as const) {
      expect(await claim(name, slot, now, `late-${slot}-${now}`), new Date(slot).toISOString()).toBe(false)
    }
  })

  it("still refuses a slot below a last_slot ahead by at most 2 x lease, and a claimant whose own clock is far behind", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    await engine().release(name, "run-a")
    // A clock 3 minutes ahead: within 2 x lease (4 minutes), so last_slot < slot protects as ever.
    expect(await claim(name, T0 + 4 * MINUTE, T0 + 4 * MINUTE, "run-ahead")).toBe(true)
    await engine().release(name, "run-ahead")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE + 1_000, "run-b")).toBe(false)
    expect(await claim(name, T0 + 5 * MINUTE, T0 + 5 * MINUTE, "run-c")).toBe(true)
    await engine().release(name, "run-c")
    // A replica a day behind sees every slot as far ahead of it: it runs none of its own (long past) slots.
    expect(await claim(name, T0 + 6 * MINUTE - DAY, T0 + 6 * MINUTE - DAY, "run-behind")).toBe(false)
    expect(await claim(name, T0 + 6 * MINUTE, T0 + 6 * MINUTE - DAY, "run-behind-2")).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + 6 * MINUTE, holder: "run-behind-2" })
  })

  it("ignores a release by another holder", async () => {
    const name = fresh()
    await claim(name, T0, T0, "run-a")
    expect(await engine().release(name, "run-b")).toBe(false)
    expect(await engine().lease(name)).toEqual({ lastSlot: T0, leaseUntil: T0 + LEASE, holder: "run-a" })
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
    expect(await engine().release(name, "run-a")).toBe(true)
    expect(await engine().lease(name)).toEqual({ lastSlot: T0, leaseUntil: null, holder: null })
  })

  it("gives exactly one winner among 20 concurrent claims of one slot", async () => {
    const name = fresh()
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(name, T0, T0 + i, `run-${i}`)))
    expect(results.filter(Boolean)).toHaveLength(1)
    expect((await engine().lease(name))?.holder).toBe(`run-${results.indexOf(true)}`)
  })
}
