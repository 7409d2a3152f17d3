import { sql } from "drizzle-orm"
import { afterEach, expect, it, vi } from "vitest"
import { admin } from "../../src/infra/admin/index.ts"
import { database } from "../../src/infra/db/index.ts"
import { claimSlot } from "../../src/infra/jobs/protocol/lease.ts"

const MINUTE = 60_000
const TOKEN = "release-clock-token"
let counter = 0

/**
 * Admin's unforced lease release (`DELETE /admin/leases/:name`) on a replica whose clock is off by 5
 * minutes: "held" is the database's judgement, as the claim that wrote the lease is. Registered once
 * per database (D1 in workerd; libSQL and a PostgreSQL server in Node); the replica's clock is its
 * `Date`, moved by fake timers, and the database keeps its own.
 */
export function leaseReleaseClockScenarios(binding: () => D1Database) {
  const app = admin({ jobs: [], consumers: [] })
  const release = (name: string, force = false) =>
    app.request(
      `/leases/${name}${force ? "?force=true" : ""}`,
      { method: "DELETE", headers: { authorization: `Bearer ${TOKEN}` } },
      { DB: binding(), ADMIN_TOKEN: TOKEN },
    )
  const row = (name: string) =>
    database(binding()).all<{ holder: string | null; lease_until: number | null }>(
      sql`select holder, lease_until from jobs_leases where name = ${name}`,
    )
  /** Moves this replica's clock (its Date) by `offset`, leaving the database's as it is. */
  const replicaOffBy = (offset: number) => {
    const real = Date.now()
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(real + offset)
  }
  /** The slots the row keeps as won and never released (slot-claim.ts, UNRELEASED), as text. */
  const kept = async (name: string) =>
    (
      await database(binding()).all<{ unreleased_slots: string | null }>(
        sql`select unreleased_slots from jobs_leases where name = ${name}`,
      )
    )[0]?.unreleased_slots ?? null
  afterEach(() => vi.useRealTimers())

  it("refuses (409) to free a lease the database still holds, though the replica's clock 5 minutes ahead says it expired", async () => {
    const name = `release.ahead-${++counter}`
    const slot = Math.floor(Date.now() / MINUTE) * MINUTE
    // Claimed as a run claims it: by the database's clock, a lease of 2 minutes.
    expect(await claimSlot(database(binding()), { name, slot, leaseMs: 2 * MINUTE, holder: "live-run" })).toBe(true)
    const [held] = await row(name)
    replicaOffBy(5 * MINUTE)
    const res = await release(name)
    const text = await res.text()
    expect(res.status, text).toBe(409)
    expect(res.headers.get("content-type")).toBe("application/problem+json")
    expect(JSON.parse(text)).toMatchObject({ status: 409, field: "force" })
    expect(await row(name)).toEqual([held])
    // Forced, it goes.
    expect(await (await release(name, true)).json()).toMatchObject({ released: true })
    expect(await row(name)).toEqual([{ holder: null, lease_until: null }])
    // Issue 45: the holder it cleared keeps its slot as won, so a run whose release never comes is not said taken.
    expect(await kept(name)).toBe(String(slot))
    // Released again, with no holder left, nothing more is kept.
    expect(await (await release(name, true)).json()).toMatchObject({ released: false })
    expect(await kept(name)).toBe(String(slot))
  })

  it("frees a lease the database judges expired, though the replica's clock 5 minutes behind says it is held", async () => {
    const name = `release.behind-${++counter}`
    const slot = Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE
    expect(await claimSlot(database(binding()), { name, slot, leaseMs: MINUTE, holder: "gone-run" })).toBe(true)
    // The lease ended 2 minutes ago by the database's clock.
    await database(binding()).run(
      sql`update jobs_leases set lease_until = cast(round(unixepoch('now', 'subsec') * 1000) as bigint) - ${2 * MINUTE} where name = ${name}`,
    )
    replicaOffBy(-5 * MINUTE)
    const res = await release(name)
    const text = await res.text()
    expect(res.status, text).toBe(200)
    expect(JSON.parse(text)).toMatchObject({ released: true, lease: { holder: null, leaseUntil: null } })
    expect(await row(name)).toEqual([{ holder: null, lease_until: null }])
  })
}
