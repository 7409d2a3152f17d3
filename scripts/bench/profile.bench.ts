import { applyD1Migrations, env, runInDurableObject } from "cloudflare:test"
import { beforeAll, expect, it } from "vitest"
import { fill } from "./fill.ts"
import { SetupClock } from "./lead.ts"
import { forget, run } from "./record.ts"
import { progress } from "./result.ts"
import { streamStub, target } from "./systems.ts"
import type { BenchStream } from "./worker.ts"
import { createDue, settled, waitFor } from "./workloads/common.ts"

/**
 * The real-time burst of slotwise alone, under the CPU profiler: `npm run bench:profile`
 * (profile.ts) runs this file with the inspector on, and starts and stops the profiler when this
 * test asks through BENCH_PROFILE_HOOK, so that the profile holds the setup and the burst only.
 */

const n = Number(env.BENCH_PROFILE_N || 1_000)
/** BENCH_PROFILE_TICKS=1: the limit workload's ticks back to back instead (limit.ts), to hold the two paths side by side. */
const ticks = env.BENCH_PROFILE_TICKS === "1"

const hook = async (step: "start" | "stop", body: Record<string, unknown> = {}) => {
  const response = await fetch(`${env.BENCH_PROFILE_HOOK}/${step}`, { method: "POST", body: JSON.stringify(body) })
  if (!response.ok) throw new Error(`profile ${step}: ${response.status} ${await response.text()}`)
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.BENCH_MIGRATIONS)
})

// Only under profile.ts, which serves the hook; a plain run of the bench config skips it.
it.skipIf(!env.BENCH_PROFILE_HOOK || ticks)(`profile: burst ${n}`, async () => {
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

it.skipIf(!env.BENCH_PROFILE_HOOK || !ticks)(`profile: ${n} delivered by ticks back to back`, async () => {
  const name = `profile-ticks-${n}`
  // The time the ticks run at: far ahead, so no real alarm of this stream fires meanwhile.
  const at = Date.UTC(2100, 0, 1)
  const stub = streamStub(name)
  await runInDurableObject(stub, async (stream: BenchStream, state) => {
    await stream.list(name)
    fill(state.storage.sql, name, n, n, at, "t")
  })
  await hook("start")
  const { delivered, spanMs } = await runInDurableObject(stub, async (stream: BenchStream) => {
    const started = Date.now()
    let delivered = 0
    while (delivered < n) delivered += (await stream.tickAt(at)).delivered
    return { delivered, spanMs: Date.now() - started }
  })
  await hook("stop", { deliveries: delivered, spanMs, duplicates: run(name).seen.length - delivered })
  progress(`profile: ${delivered} delivered by ticks back to back in ${spanMs} ms`)
  forget(name)
  expect(delivered).toBe(n)
})
