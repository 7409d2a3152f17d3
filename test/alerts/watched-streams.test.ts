import { env } from "cloudflare:test"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { runAlerts, WATCHED_STREAM_DEADLINE_MS } from "../../src/infra/alerts/alert-job.ts"
import { type AlertNotice, Alerts } from "../../src/infra/alerts/index.ts"
import type { SlotwiseEnv } from "../../src/infra/env.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { openStream, stubOf, tickAt } from "../support/streams.ts"

const MINUTE = 60_000
const realSetTimeout = globalThis.setTimeout

// One alerts job a database: a test's job would resolve the incidents of rules another test declared.
beforeEach(async () => {
  resetConsumers()
  await env.DB.exec("DELETE FROM alert_incidents")
})
afterEach(() => vi.useRealTimers())

/**
 * env with its SCHEDULES namespace wrapped: the streams named in `hung` never answer `list`, and every `list`
 * call is counted while it is out, so a test sees how many ran at once.
 */
function withHungStreams(hung: ReadonlySet<string>) {
  const counts = { out: 0, most: 0, hungStarted: 0 }
  let allHung: () => void = () => {}
  const allHungStarted = new Promise<void>((resolve) => {
    allHung = resolve
  })
  let answered: () => void = () => {}
  const othersAnswered = new Promise<void>((resolve) => {
    answered = resolve
  })
  const real = env.SCHEDULES
  const namespace = {
    idFromName: (name: string) => ({ name }),
    get: ({ name }: { name: string }) => {
      const stub = real.get(real.idFromName(name)) as unknown as Record<string, (...args: unknown[]) => unknown>
      return new Proxy(stub, {
        get(target, method: string) {
          if (method !== "list") return target[method]
          return async (...args: unknown[]) => {
            counts.out++
            counts.most = Math.max(counts.most, counts.out)
            if (hung.has(name)) {
              if (++counts.hungStarted === hung.size) allHung()
              return new Promise(() => {})
            }
            try {
              return await target.list?.(...args)
            } finally {
              if (--counts.out === hung.size) answered()
            }
          }
        },
      })
    },
  }
  return { env: { ...env, SCHEDULES: namespace } as unknown as SlotwiseEnv, counts, allHungStarted, othersAnswered }
}

describe("the alerts job reads its watched streams in parallel, each under its own deadline", () => {
  it("delivers the other rules' notices while 8 watched streams do not answer", async () => {
    const t = Date.UTC(2032, 2, 1, 3, 0)
    const watched = openStream("watched")
    await watched.upsert({ id: "hook", consumer: "test.scripted", every: "1 minute" }, t - MINUTE)
    script.set("hook", ["terminal"])
    await watched.tick(t)
    const hungNames = Array.from({ length: 8 }, (_, i) => `hung-${t}-${i}`)
    const { env: hungEnv, counts, allHungStarted, othersAnswered } = withHungStreams(new Set(hungNames))
    const alertStream = `parallel-${t}`
    const options = {
      consumer: "test.scripted",
      stream: alertStream,
      rules: [...hungNames, watched.name].map((stream) => Alerts.scheduleFailed({ stream })),
    }
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
    const run = runAlerts(hungEnv, options, { slot: t, now: t + 1_000 })
    // Every listing starts before any deadline passes, and the healthy one answers: a hung stream holds up no other.
    const started = await Promise.race([
      Promise.all([allHungStarted, othersAnswered]).then(() => true),
      new Promise<false>((resolve) => realSetTimeout(() => resolve(false), 5_000)),
    ])
    expect(started, `${counts.hungStarted} of 8 hung listings started before the first deadline`).toBe(true)
    await vi.advanceTimersByTimeAsync(WATCHED_STREAM_DEADLINE_MS)
    const report = await run
    vi.useRealTimers()
    expect(counts.most).toBe(9)
    expect(report).toMatchObject({ open: 1, notices: 1 })
    await tickAt(stubOf(alertStream), t + 2_000)
    const notices = seen
      .filter(({ delivery }) => delivery.stream === alertStream)
      .map(({ delivery }) => delivery.payload as AlertNotice)
    expect(notices.map((notice) => [notice.status, notice.subject])).toEqual([["firing", `${watched.name}/hook`]])
  })
})
