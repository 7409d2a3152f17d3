import { Random } from "../sim/random.ts"
import type { CountMode, Fault } from "./sim-d1.ts"
import type { Act } from "./sim-jobs.ts"

/** What a step does to the jobs' world; `job` is an index into the world's jobs. */
export type Step =
  /** The clock moves to the next minute, `offsetMs` past its start (an hour turns every 60). */
  | { op: "tick"; offsetMs: number }
  /** A heartbeat (the primary, or a replica whose clock is `skewMs` off, within the tolerance) fires. */
  | { op: "beat"; skewMs: number; faults: Fault[]; acts: Record<number, Act>; mode: CountMode }
  /** The heartbeat in queue mode: each due job is sent to the queue, delivered by later `deliver` steps. */
  | { op: "handOff" }
  /** The queue delivers its oldest `count` messages as one batch; `again` keeps them queued (a redelivery). */
  | { op: "deliver"; count: number; again: boolean; faults: Fault[]; acts: Record<number, Act>; mode: CountMode }
  | { op: "pause"; job: number }
  | { op: "resume"; job: number }
  | { op: "runNow"; job: number; acts: Record<number, Act> }
  | { op: "release"; job: number; force: boolean }
  /** A 0.1.0 replica, during a gradual deployment, runs a job's slot of its clock. */
  | { op: "old"; job: number; skewMs: number }
  /** The alerts job judges its rules (one Alerts.jobFailed a job) and sends the notices it owes. */
  | { op: "alerts" }

export interface Plan {
  seed: number
  plan: "free" | "paid"
  cadences: Array<{ every?: number; at?: number }>
  steps: Step[]
}

const CADENCES = [
  { every: 1 },
  { every: 1 },
  { every: 1 },
  { every: 2 },
  { every: 3 },
  { every: 5 },
  { at: 0 },
  { at: 59 },
]

function faultsOf(random: Random): Fault[] {
  const faults: Fault[] = []
  if (random.chance(0.05)) faults.push({ target: "claim", kind: random.chance(0.5) ? "fail" : "late" })
  if (random.chance(0.05)) faults.push({ target: "release", kind: random.chance(0.6) ? "fail" : "late" })
  if (random.chance(0.03)) faults.push({ target: "pauses", kind: "fail" })
  return faults
}

/** The acts of a few jobs: a throw, many queries (past the free plan's budget when several do), a session. */
function actsOf(random: Random, jobs: number): Record<number, Act> {
  const acts: Record<number, Act> = {}
  for (let job = 0; job < jobs; job++) {
    if (!random.chance(0.35)) continue
    acts[job] = {
      fail: random.chance(0.25),
      queries: random.weighted([
        [0, 2],
        [2, 3],
        [12, 2],
        [45, 2],
      ]),
      session: random.chance(0.3),
    }
  }
  return acts
}

/** A run of `count` steps from `seed`: the same seed gives the same steps on every machine. */
export function generate(seed: number, count: number): Plan {
  const random = new Random(seed)
  const size = random.int(4, 8)
  const cadences = Array.from({ length: size }, () => random.pick(CADENCES))
  const steps: Step[] = []
  // Drawn apart, so the other steps of a seed are the same with or without them.
  const alerting = new Random(seed ^ 0x5eed)
  const mode = (): CountMode => (random.chance(0.3) ? "statement" : "batch")
  while (steps.length < count) {
    const roll = random.next()
    if (roll < 0.3) {
      steps.push({ op: "tick", offsetMs: random.chance(0.8) ? random.int(0, 3_000) : random.int(3_000, 50_000) })
      if (random.chance(0.92)) {
        steps.push({ op: "beat", skewMs: 0, faults: faultsOf(random), acts: actsOf(random, size), mode: mode() })
      }
    } else if (roll < 0.4) {
      const skewMs = random.int(-9_000, 9_000)
      steps.push({ op: "beat", skewMs, faults: faultsOf(random), acts: actsOf(random, size), mode: mode() })
    } else if (roll < 0.5) steps.push({ op: "handOff" })
    else if (roll < 0.65) {
      const [count, again] = [random.int(2, 8), random.chance(0.25)]
      steps.push({ op: "deliver", count, again, faults: faultsOf(random), acts: actsOf(random, size), mode: mode() })
    } else if (roll < 0.72) steps.push({ op: "pause", job: random.int(0, size - 1) })
    else if (roll < 0.8) steps.push({ op: "resume", job: random.int(0, size - 1) })
    else if (roll < 0.86) steps.push({ op: "runNow", job: random.int(0, size - 1), acts: actsOf(random, size) })
    else if (roll < 0.92) steps.push({ op: "release", job: random.int(0, size - 1), force: random.chance(0.5) })
    else steps.push({ op: "old", job: random.int(0, size - 1), skewMs: random.int(-9_000, 9_000) })
    if (alerting.chance(0.06)) steps.push({ op: "alerts" })
  }
  return { seed, plan: seed % 2 === 0 ? "free" : "paid", cadences, steps: steps.slice(0, count) }
}

/** A step as a line of a failure report. */
export const describe = (step: Step): string => JSON.stringify(step)
