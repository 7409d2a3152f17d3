import { expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import type { SlotwiseEnv } from "../../src/infra/env.ts"
import { jobHistory } from "../../src/infra/jobs/history/history.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import { readRunHours } from "../../src/infra/jobs/protocol/run-hours.ts"
import * as v010 from "../compat/0.1.0/engine.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
// A minute of 2026 that no other scenario uses; the database's clock is stood in for by `now`.
const T0 = Date.UTC(2026, 5, 3, 9, 30)
let counter = 0

/**
 * A gradual deployment's history (docs/upgrading.md): 0.1.0 replicas, which write no hour rows, run slots of a
 * job beside today's. Every slot either ran shows as ran, none as missed. Registered once per database: D1 in
 * workerd (test/compat/previous-release.test.ts), libSQL and PostgreSQL in Node (test/node/previous-release.test.ts).
 */
export function rolloutHistoryScenarios(binding: () => D1Database) {
  it("shows 0.1.0's runs during a rollout as ran, never missed, across an hour's turn", async () => {
    const name = `rollout.job-${Date.now()}-${++counter}`
    const definition = { name, cron: "* * * * *", exclusive: true, timeout: "1 minute" as const, run: () => {} }
    const old = v010.Jobs.make(definition) as v010.Job010
    const today = Jobs.make(definition)
    // Runs of 0.1.0 before the first of today's (the upgrade), then both, 0.1.0's up to three slots in a row.
    const slots = Array.from({ length: 70 }, (_, i) => T0 + i * MINUTE)
    for (const [i, slot] of slots.entries()) {
      const byOld = i < 5 || (i % 5 < 3 && i < slots.length - 1)
      const result = byOld
        ? await v010.Jobs.run(old, new Date(slot), { env: { DB: binding() }, now: () => slot + 1_000 })
        : await Jobs.run(today, new Date(slot), {
            env: { DB: binding() } as unknown as SlotwiseEnv,
            now: () => slot + 1_000,
          })
      expect(result.status).toBe("ran")
    }
    // Half a minute after the last slot: every slot before it is past the minute a missed slot waits.
    const now = (slots.at(-1) as number) + 30_000
    const { rows, firstRun, lease } = await readRunHours(database(binding()), name, now - 2 * HOUR)
    const history = jobHistory(today, rows, firstRun, lease, now, 1)
    const counted = history.hours.filter((hour) => hour.hour >= T0 - (T0 % HOUR))
    expect(counted.map((hour) => [hour.missed, hour.ran])).toEqual([
      [0, 30],
      [0, 40],
    ])
    const marks = history.today.filter((mark) => mark.slot >= T0 && mark.slot <= (slots.at(-1) as number))
    expect(marks.map((mark) => mark.status)).toEqual(slots.map(() => "ran"))
  })
}
