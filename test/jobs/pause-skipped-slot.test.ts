import { env } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { pauseHolds } from "../../src/infra/jobs/contract/pause.ts"
import { beat } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { timeline } from "../../src/infra/jobs/history/timeline.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { listLeases } from "../../src/infra/jobs/protocol/lease.ts"
import { pauseJob, pausesSince, resumeJob } from "../../src/infra/jobs/protocol/pauses.ts"

const MINUTE = 60_000
let jobs = 0

/** A job each minute, fired by the heartbeat's beat at `firedAt` (late, or the container's start-up beat) for `slot`. */
function everyMinute() {
  const job = Jobs.make({
    name: `pause-slot.job-${++jobs}`,
    cron: "* * * * *",
    exclusive: true,
    timeout: 1_000,
    run: () => {},
  })
  const fire = async (slot: number, firedAt = slot + 1_000) =>
    (await beat([job], slot, env, { now: () => firedAt })).find((result) => result.job === job.name)?.status
  const slots = async (now: number) => {
    const db = database(env.DB)
    const lease = (await listLeases(db)).find((row) => row.name === job.name)
    const pauses = await pausesSince(db, job.name, now - 60 * MINUTE)
    return new Map(timeline(job, lease, now, 20, pauses).map((entry) => [entry.slot, entry.status]))
  }
  return { job, fire, slots }
}

describe("a slot a pause skipped is shown paused, never missed", () => {
  it("when the pause was made in the first seconds of its minute, before that minute's heartbeat read pauses", async () => {
    const { job, fire, slots } = everyMinute()
    const t = Date.UTC(2033, 0, 10, 3, 0)
    expect(await fire(t)).toBe("ran")
    await pauseJob(database(env.DB), { job: job.name, reason: "maintenance", by: null, now: t + MINUTE + 2_000 })
    expect(await fire(t + MINUTE, t + MINUTE + 4_000)).toBeUndefined()
    expect(await fire(t + 2 * MINUTE)).toBeUndefined()
    const shown = await slots(t + 4 * MINUTE)
    expect(shown.get(t)).toBe("ran")
    expect(shown.get(t + MINUTE)).toBe("paused")
    expect(shown.get(t + 2 * MINUTE)).toBe("paused")
  })

  it("when a late heartbeat, or the container's start-up beat, skipped a slot for a pause made after it began", async () => {
    const { job, fire, slots } = everyMinute()
    const t = Date.UTC(2033, 0, 11, 3, 0)
    expect(await fire(t)).toBe("ran")
    await pauseJob(database(env.DB), { job: job.name, reason: "maintenance", by: null, now: t + MINUTE + 30_000 })
    // The beat for t + 1 minute comes 45 s late (or is the start-up beat of a container started then).
    expect(await fire(t + MINUTE, t + MINUTE + 45_000)).toBeUndefined()
    await resumeJob(database(env.DB), { job: job.name, by: null, now: t + 2 * MINUTE + 10_000 })
    expect(await fire(t + 3 * MINUTE)).toBe("ran")
    const shown = await slots(t + 5 * MINUTE)
    expect(shown.get(t + MINUTE)).toBe("paused")
    expect(shown.get(t + 2 * MINUTE)).toBe("paused")
    expect(shown.get(t + 3 * MINUTE)).toBe("ran")
  })

  it("but a slot already missed before the pause began stays missed", () => {
    const t = Date.UTC(2033, 0, 12, 3, 0)
    // The slot was not run within its minute: the pause a minute later did not skip it.
    expect(pauseHolds({ pausedAt: t + MINUTE, resumedAt: null }, t)).toBe(false)
    expect(pauseHolds({ pausedAt: t + MINUTE - 1, resumedAt: null }, t)).toBe(true)
    // A slot on or after the resume runs again; the slot a resume ended in the middle of its minute was skipped.
    expect(pauseHolds({ pausedAt: t - MINUTE, resumedAt: t }, t)).toBe(false)
    expect(pauseHolds({ pausedAt: t - MINUTE, resumedAt: t + 1 }, t)).toBe(true)
  })
})
