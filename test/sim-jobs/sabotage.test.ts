import { describe, expect, it } from "vitest"
import { type SimulateOptions, simulate } from "./simulate.ts"
import { generate } from "./steps.ts"
import type { Line } from "./world.ts"

/**
 * A simulator is only as good as its oracle: each planted fault below breaks one promise of the jobs side, through
 * the simulator's own seams (the D1 it hands the Worker, the logs it reads), never src. The same seed, unplanted,
 * keeps every rule; planted, the simulator names the rule the fault breaks.
 */
const SEED = 4
const STEPS = 400

const planted: Array<{ fault: string; rule: string; plant: SimulateOptions["plant"]; seed?: number }> = [
  {
    fault: "a claim that ignores last_slot (a released slot is claimed again)",
    rule: "ran-twice",
    plant: (world) => {
      world.sim.sabotage = (text) =>
        text.replace(
          "where jobs_leases.last_slot < excluded.last_slot",
          "where jobs_leases.last_slot <= excluded.last_slot",
        )
    },
  },
  {
    // (A release that drops only the run's entry from its hour is read back from the run history, as a 0.1.0
    // replica's run is: the history still says ran.)
    fault: "a flush that loses the hour it ends",
    rule: "history-slot",
    plant: (world) => {
      world.sim.sabotage = (text) =>
        text.replace(
          "coalesce(hour_max_ms, 0), hour_runs\nfrom jobs_leases",
          "coalesce(hour_max_ms, 0), ''\nfrom jobs_leases",
        )
    },
  },
  {
    fault: "a release that records the run but keeps the lease",
    rule: "lease",
    plant: (world) => {
      world.sim.sabotage = (text) =>
        text.startsWith("update jobs_leases set\n  lease_until = null, lease_ms = null, holder = null,")
          ? text.replace("lease_until = null, lease_ms = null, holder = null,", "lease_ms = null,")
          : text
    },
  },
  {
    fault: "a run's job.run line dropped on its way to the logs",
    rule: "log-lines",
    plant: (world) => {
      let dropped = false
      world.drop = (line: Line) => {
        if (dropped || line.message !== "job.run" || line.outcome !== "ran") return false
        dropped = true
        return true
      }
    },
  },
  {
    fault: "a pause nobody reads (the open-pause lookup of the heartbeat and health answers none)",
    rule: "health-paused",
    plant: (world) => {
      world.sim.sabotage = (text) =>
        text.replace('where "jobs_pauses"."resumed_at" is null', 'where "jobs_pauses"."resumed_at" is null and 0')
    },
  },
  {
    fault: "an alerts job that forgets its open incidents (it opens each again, with a second notice)",
    rule: "alert-notices",
    // A seed whose jobs fail twice in a row early, so an incident opens.
    seed: 2,
    plant: (world) => {
      world.sim.sabotage = (text) =>
        text.replace(
          'from "alert_incidents" where "alert_incidents"."rule" <>',
          'from "alert_incidents" where 0 and "alert_incidents"."rule" <>',
        )
    },
  },
]

describe("the jobs simulator catches planted faults", () => {
  it(`seed ${SEED}, unplanted, keeps every rule for ${STEPS} steps`, async () => {
    const outcome = await simulate(generate(SEED, STEPS))
    expect(outcome.failure?.violation).toBeUndefined()
  }, 240_000)

  for (const { fault, rule, plant, seed = SEED } of planted) {
    it(`${fault}: broken rule "${rule}"`, async () => {
      const outcome = await simulate(generate(seed, STEPS), { plant })
      // The step that breaks it may break others first (the run that ran twice also wrote a line too many).
      const rules = outcome.failure?.all.map((violation) => violation.rule)
      expect(rules, JSON.stringify(outcome.failure?.all)).toContain(rule)
    }, 240_000)
  }
})
