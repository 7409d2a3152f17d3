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

  it("a slot a clock far ahead ran early is never run again when real time reaches it, while that clock is still ahead", async () => {
    const name = fresh()
    const ahead = async (slot: number) => {
      expect(await claim(name, slot, slot + 500, `run-ahead-${slot}`), new Date(slot).toISOString()).toBe(true)
      await engine().release(name, `run-ahead-${slot}`)
    }
    const onTime = (slot: number) => claim(name, slot, slot + 1_000, `run-${slot}`)
    expect(await onTime(T0)).toBe(true)
    await engine().release(name, `run-${T0}`)
    // A replica a day ahead jumps to tomorrow's slot (J) and runs J and the next 2 minutes early.
    for (const k of [0, 1, 2]) await ahead(T0 + DAY + k * MINUTE)
    expect(await onTime(T0 + MINUTE)).toBe(true)
    await engine().release(name, `run-${T0 + MINUTE}`)
    // A day later it is still a day ahead: last_slot is tomorrow's tomorrow, far ahead of real time.
    for (let k = 3; k < 10; k++) await ahead(T0 + DAY + k * MINUTE)
    // The correct replicas run every slot below J (here its last one), none of the slots it ran early.
    expect(await onTime(T0 + DAY - MINUTE)).toBe(true)
    await engine().release(name, `run-${T0 + DAY - MINUTE}`)
    for (const k of [0, 1, 2, 3]) expect(await onTime(T0 + DAY + k * MINUTE), `J + ${k} minutes`).toBe(false)
    // Once real time passes its newest slot (it was corrected), last_slot < slot takes over.
    expect(await onTime(T0 + DAY + 10 * MINUTE)).toBe(true)
    expect(await engine().lease(name)).toMatchObject({ lastSlot: T0 + DAY + 10 * MINUTE })
  })

  it("loses, never runs twice, the slots below a first jump when a second jumps further ahead", async () => {
    const name = fresh()
    const run = async (slot: number, now: number) => {
      const won = await claim(name, slot, now, `run-${slot}-${now}`)
      if (won) await engine().release(name, `run-${slot}-${now}`)
      return won
    }
    expect(await run(T0, T0 + 1_000)).toBe(true)
    // One clock a day ahead runs J1 and J1 + 1 minute early; the correct replicas run T0 + 1 minute.
    expect(await run(T0 + DAY, T0 + DAY + 500)).toBe(true)
    expect(await run(T0 + DAY + MINUTE, T0 + DAY + MINUTE + 500)).toBe(true)
    expect(await run(T0 + MINUTE, T0 + MINUTE + 1_000)).toBe(true)
    // Another, two days ahead, jumps past it: the gap below J1 is forgotten (lost), the one above kept.
    expect(await run(T0 + 2 * DAY, T0 + 2 * DAY + 500)).toBe(true)
    expect(await run(T0 + 2 * MINUTE, T0 + 2 * MINUTE + 1_000)).toBe(false)
    expect(await run(T0 + DAY - MINUTE, T0 + DAY - MINUTE + 1_000)).toBe(false)
    // J1's slots ran early and stay refused; the slots past them, until the second jump, run on time.
    expect(await run(T0 + DAY, T0 + DAY + 1_000)).toBe(false)
    expect(await run(T0 + DAY + MINUTE, T0 + DAY + MINUTE + 1_000)).toBe(false)
    expect(await run(T0 + DAY + 2 * MINUTE, T0 + DAY + 2 * MINUTE + 1_000)).toBe(true)
    expect(await run(T0 + 2 * DAY, T0 + 2 * DAY + 1_000)).toBe(false)
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
