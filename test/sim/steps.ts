import { Random } from "./random.ts"

/** The schedule ids a run plays with: few, so that operations keep meeting the same rows. */
export const IDS = ["s0", "s1", "s2", "s3", "s4"] as const
export type Id = (typeof IDS)[number]
export const CONSUMERS = ["test.scripted", "test.quick"] as const
export type ConsumerName = (typeof CONSUMERS)[number]

/** What a consumer does with one delivery (test/support/consumers.ts runs it). */
export type Behaviour = "ok" | "retry" | "throw" | "terminal" | "hang" | "wait"
/** How a parked ("wait") delivery is answered. */
export type Answer = "ok" | "retry" | "throw" | "terminal"

/** `at` is relative to the clock when the step runs, so a shrunk run keeps its meaning. */
export type TimingChoice = { at: number } | { after: number } | { every: number } | { cron: string; timezone?: string }

export type Step = (
  | { op: "upsert"; id: Id; consumer: ConsumerName; timing: TimingChoice; maxAttempts?: number; payload: number }
  | { op: "cancel" | "resume" | "trigger"; id: Id }
  /** Deliver what is due: at the injected clock, or first jump the clock to the stored alarm. */
  | { op: "tick"; alarm: boolean; behave: Partial<Record<Id, Behaviour>> }
  /** The injected clock moves, forward or backward. */
  | { op: "clock"; ms: number }
  /** Answers the parked delivery number `pick` (modulo how many are parked). */
  | { op: "answer"; pick: number; answer: Answer }
  /** Wall time passes inside the object: consumer deadlines fire. */
  | { op: "elapse"; ms: number }
  /** The object loses its memory: a fresh ScheduleStream on the same storage; in-flight work is gone. */
  | { op: "evict" }
) & {
  /** The n-th SQL statement of this step throws (0-based). */
  fault?: number
}

const EVERY = [1_000, 7_000, 60_000, 600_000, 3_600_000]
const CRONS: Array<{ cron: string; timezone?: string }> = [
  { cron: "* * * * *" },
  { cron: "*/5 * * * *" },
  { cron: "0 * * * *", timezone: "Europe/Berlin" },
  { cron: "30 9 * * *", timezone: "America/New_York" },
]

function timing(random: Random): TimingChoice {
  switch (
    random.weighted<"at" | "after" | "every" | "cron">([
      ["at", 3],
      ["after", 2],
      ["every", 4],
      ["cron", 2],
    ])
  ) {
    case "at":
      return { at: random.int(-120_000, 600_000) }
    case "after":
      return { after: random.pick([1_000, 5_000, 30_000, 90_000, 600_000]) }
    case "every":
      return { every: random.pick(EVERY) }
    case "cron":
      return random.pick(CRONS)
  }
}

/** How a schedule's consumer is doing for a while: "down" ones fail long enough to reach the 60 s cap. */
type Mood = "healthy" | "flaky" | "down"

const BEHAVIOURS: Record<Mood, ReadonlyArray<readonly [Behaviour, number]>> = {
  healthy: [
    ["ok", 60],
    ["retry", 8],
    ["throw", 5],
    ["terminal", 2],
    ["hang", 5],
    ["wait", 20],
  ],
  flaky: [
    ["ok", 35],
    ["retry", 20],
    ["throw", 15],
    ["terminal", 3],
    ["hang", 7],
    ["wait", 20],
  ],
  down: [
    ["retry", 45],
    ["throw", 35],
    ["hang", 10],
    ["wait", 10],
  ],
}

function clockMs(random: Random): number {
  return random.weighted<() => number>([
    [() => random.int(0, 2_000), 30],
    [() => random.int(2_000, 90_000), 35],
    [() => random.int(90_000, 2 * 3_600_000), 10],
    [() => random.int(2 * 3_600_000, 3 * 86_400_000), 2],
    [() => -random.int(1, 90_000), 4],
    [() => -3_600_000, 1],
  ])()
}

/** A run of `count` random steps, the same for the same seed. */
export function generate(seed: number, count: number): Step[] {
  const random = new Random(seed)
  const last = new Map<Id, Extract<Step, { op: "upsert" }>>()
  const moods = new Map<Id, Mood>(IDS.map((id) => [id, "healthy"]))
  const steps: Step[] = []
  for (let i = 0; i < count; i++) {
    if (random.chance(0.02)) {
      moods.set(
        random.pick(IDS),
        random.weighted<Mood>([
          ["healthy", 6],
          ["flaky", 3],
          ["down", 2],
        ]),
      )
    }
    const id = random.pick(IDS)
    const kind = random.weighted<Step["op"]>([
      ["upsert", 10],
      ["cancel", 3],
      ["resume", 3],
      ["trigger", 3],
      ["tick", 30],
      ["clock", 25],
      ["answer", 12],
      ["elapse", 6],
      ["evict", 2],
    ])
    let step: Step
    switch (kind) {
      case "upsert": {
        const previous = last.get(id)
        // The same definition again must change nothing; a changed one retimes or updates.
        if (previous && random.chance(0.25)) {
          step = random.chance(0.5) ? previous : { ...previous, payload: random.int(0, 2) }
        } else {
          step = {
            op: "upsert",
            id,
            consumer: random.pick(CONSUMERS),
            timing: timing(random),
            payload: random.int(0, 2),
          }
          if (random.chance(0.3)) step.maxAttempts = random.int(1, 4)
        }
        last.set(id, step)
        break
      }
      case "cancel":
      case "resume":
      case "trigger":
        step = { op: kind, id }
        break
      case "tick": {
        const behave: Partial<Record<Id, Behaviour>> = {}
        for (const each of IDS) {
          const chosen = random.weighted(BEHAVIOURS[moods.get(each) as Mood])
          if (chosen !== "ok") behave[each] = chosen
        }
        step = { op: "tick", alarm: random.chance(0.4), behave }
        break
      }
      case "clock":
        step = { op: "clock", ms: clockMs(random) }
        break
      case "answer":
        step = {
          op: "answer",
          pick: random.int(0, 7),
          answer: random.weighted<Answer>([
            ["ok", 6],
            ["retry", 2],
            ["throw", 1],
            ["terminal", 1],
          ]),
        }
        break
      case "elapse":
        step = { op: "elapse", ms: random.pick([100, 300, 1_000, 30_000]) }
        break
      case "evict":
        step = { op: "evict" }
        break
    }
    if (random.chance(0.04)) step = { ...step, fault: random.int(0, 10) }
    steps.push(step)
  }
  return steps
}

function describeTiming(t: TimingChoice): string {
  if ("at" in t) return `at=now${t.at >= 0 ? "+" : ""}${t.at}`
  if ("after" in t) return `after=${t.after}`
  if ("every" in t) return `every=${t.every}`
  return `cron="${t.cron}"${t.timezone ? ` tz=${t.timezone}` : ""}`
}

/** One line per step, for failure reports. */
export function describe(step: Step): string {
  const fault = step.fault === undefined ? "" : `  [statement ${step.fault} fails]`
  switch (step.op) {
    case "upsert":
      return `upsert ${step.id} ${step.consumer} ${describeTiming(step.timing)}${
        step.maxAttempts === undefined ? "" : ` maxAttempts=${step.maxAttempts}`
      } payload=${step.payload}${fault}`
    case "cancel":
    case "resume":
    case "trigger":
      return `${step.op} ${step.id}${fault}`
    case "tick": {
      const behave = Object.entries(step.behave).map(([id, b]) => `${id}:${b}`)
      return `tick ${step.alarm ? "at-alarm" : "now"}${behave.length ? ` (${behave.join(" ")}, others ok)` : ""}${fault}`
    }
    case "clock":
      return `clock ${step.ms >= 0 ? "+" : ""}${step.ms} ms${fault}`
    case "answer":
      return `answer parked #${step.pick} ${step.answer}${fault}`
    case "elapse":
      return `elapse ${step.ms} ms of wall time${fault}`
    case "evict":
      return `evict${fault}`
  }
}
