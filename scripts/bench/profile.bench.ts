import { applyD1Migrations, env } from "cloudflare:test"
import { beforeAll, expect, it } from "vitest"
import { SetupClock } from "./lead.ts"
import { forget, run } from "./record.ts"
import { progress } from "./result.ts"
import { target } from "./systems.ts"
import { createDue, settled, waitFor } from "./workloads/common.ts"

/**
 * The real-time burst of slotwise alone, under the CPU profiler: `npm run bench:profile`
 * (profile.ts) runs this file with the inspector on, and starts and stops the profiler when this
 * test asks through BENCH_PROFILE_HOOK, so that the profile holds the setup and the burst only.
 */

const n = Number(env.BENCH_PROFILE_N || 1_000)

const hook = async (step: "start" | "stop", body: Record<string, unknown> = {}) => {
  const response = await fetch(`${env.BENCH_PROFILE_HOOK}/${step}`, { method: "POST", body: JSON.stringify(body) })
  if (!response.ok) throw new Error(`profile ${step}: ${response.status} ${await response.text()}`)
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.BENCH_MIGRATIONS)
})

// Only under profile.ts, which serves the hook; a plain run of the bench config skips it.
it.skipIf(!env.BENCH_PROFILE_HOOK)(`profile: burst ${n}`, async () => {
  const t = target("slotwise", `profile-${n}`)
  await hook("start")
  const { dueAt } = await createDue(t, n, "noop", new SetupClock(), `profile ${n}`)
  const seen = run(t.name)
  await waitFor(
    "profile",
    () => seen.distinct >= n,
    60_000 + n * 20,
    () => `${seen.distinct} of ${n}`,
  )
  await settled(t)
  const starts = seen.successes.map((s) => s.startedAt)
  const spanMs = Math.max(...starts) - dueAt
  await hook("stop", { deliveries: n, spanMs, duplicates: seen.seen.length - n })
  progress(`profile: burst ${n} delivered in ${spanMs} ms from T0`)
  forget(t.name)
  expect(seen.seen.length).toBe(n)
})
