import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it } from "vitest"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { claimSlot, releaseSlot } from "../../src/infra/jobs/protocol/lease.ts"

const db = database(env.DB)
const MINUTE = 60_000
const LEASE = 2 * MINUTE
const T0 = Date.UTC(2026, 10, 30, 3, 0)

let counter = 0
const freshJob = () => `claim.job-${++counter}`
// `now` stands in for the database's clock, the claim's referee.
const claim = (name: string, slot: number, now: number, holder: string) =>
  claimSlot(db, { name, slot, now, leaseMs: LEASE, holder })
const leaseOf = (name: string) => db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()

describe("claimSlot (seed Decision 5)", () => {
  it("lets the first claim of a slot win and records the lease", async () => {
    const name = freshJob()
    expect(await claim(name, T0, T0 + 5, "run-a")).toBe(true)
    expect(await leaseOf(name)).toMatchObject({ name, lastSlot: T0, leaseUntil: T0 + 5 + LEASE, holder: "run-a" })
  })

  it("refuses the same slot again, even after release", async () => {
    const name = freshJob()
    await claim(name, T0, T0, "run-a")
    expect(await claim(name, T0, T0 + 1, "run-b")).toBe(false)
    await releaseSlot(db, name, "run-a")
    expect(await claim(name, T0, T0 + 2, "run-c")).toBe(false)
    expect((await leaseOf(name))?.lastSlot).toBe(T0)
  })

  it("refuses an older slot", async () => {
    const name = freshJob()
    await claim(name, T0 + MINUTE, T0 + MINUTE, "run-a")
    await releaseSlot(db, name, "run-a")
    expect(await claim(name, T0, T0 + 2 * MINUTE, "run-b")).toBe(false)
  })

  it("refuses a newer slot while the previous lease is live", async () => {
    const name = freshJob()
    await claim(name, T0, T0, "run-a")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
    expect((await leaseOf(name))?.holder).toBe("run-a")
  })

  it("reclaims an expired lease for a newer slot", async () => {
    const name = freshJob()
    await claim(name, T0, T0, "run-a")
    const later = T0 + LEASE + 1
    expect(await claim(name, T0 + 2 * MINUTE, later, "run-b")).toBe(true)
    expect(await leaseOf(name)).toMatchObject({ lastSlot: T0 + 2 * MINUTE, holder: "run-b" })
  })

  it("reclaims a lease written while the database's clock ran a year ahead", async () => {
    const name = freshJob()
    const jumped = T0 + 365 * 24 * 60 * MINUTE
    await claim(name, T0, jumped, "run-from-the-future")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(true)
    expect((await leaseOf(name))?.holder).toBe("run-b")
  })

  it("keeps a lease that is live but within twice its length", async () => {
    const name = freshJob()
    await claim(name, T0, T0 + LEASE, "run-a")
    expect(await claim(name, T0 + MINUTE, T0 + MINUTE, "run-b")).toBe(false)
  })

  it("ignores a release by another holder", async () => {
    const name = freshJob()
    await claim(name, T0, T0, "run-a")
    expect(await releaseSlot(db, name, "run-b")).toBe(false)
    expect(await leaseOf(name)).toMatchObject({ holder: "run-a", leaseUntil: T0 + LEASE })
    expect(await releaseSlot(db, name, "run-a")).toBe(true)
    expect(await leaseOf(name)).toMatchObject({ name, lastSlot: T0, leaseUntil: null, holder: null })
  })

  it("gives exactly one winner among 20 concurrent claims of one slot", async () => {
    const name = freshJob()
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claim(name, T0, T0 + i, `run-${i}`)))
    expect(results.filter(Boolean)).toHaveLength(1)
    const winner = results.indexOf(true)
    expect((await leaseOf(name))?.holder).toBe(`run-${winner}`)
  })
})
