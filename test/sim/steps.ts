import { Random } from "./random.ts"

/** The schedule ids a run plays with: few, so that operations keep meeting the same rows; one of 123 characters (backfill ids). */
export const IDS = [
  "s0",
  "s1",
  "s2",
  "s3",
  "s4",
  "s5-longlonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglong",
] as const
export type Id = (typeof IDS)[number]
export const CONSUMERS = ["test.scripted", "test.quick"] as const
export type ConsumerName = (typeof CONSUMERS)[number]

/** What a consumer does with one delivery (test/support/consumers.ts runs it). */
export type Behaviour = "ok" | "retry" | "throw" | "terminal" | "hang" | "wait" | "malformed"
/** How a parked ("wait") delivery is answered; "malformed": a retry outcome whose reason was overwritten. */
export type Answer = "ok" | "retry" | "throw" | "terminal" | "malformed"

/**
 * `at` is relative to the clock when the step runs, so a shrunk run keeps its meaning; `at: "due"`
 * is the row's own next_at then (a retime that keeps the due time of a delivery in flight).
 */
export type TimingChoice =
  | { at: number | "due" }
  | { after: number }
  | { every: number }
  | { cron: string; timezone?: string }

export type Step = (
  | {
      op: "upsert"
      id: Id
      consumer: ConsumerName
      timing: TimingChoice
      maxAttempts?: number
      payload: number
      /** The stream's retention window, sent with this upsert. */
      retention?: number
      /** A window's ends, relative to the clock when the step runs; a count; a jitter bound. */
      startAt?: number
      endAt?: number
      times?: number
      jitter?: number
    }
  | { op: "cancel"; id: Id; reason?: string }
  | { op: "resume" | "trigger" | "remove"; id: Id }
  /** Backfills the range [now + from, now + to] of a schedule (a preview only, with dryRun). */
  | { op: "backfill"; id: Id; from: number; to: number; dryRun: boolean }
  /** A deploy that lacks `consumer` (present: false), or brings it back. */
  | { op: "deploy"; consumer: ConsumerName; present: boolean }
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
  /**
   * During the delivery in flight number `pick` (modulo how many are), its schedule is cancelled,
   * then started again at once: resumed, or upserted due now (the same key, due again).
   */
  | { op: "restart"; pick: number; via: "resume" | "upsert" }
) & {
  /** The n-th SQL statement of this step throws (0-based). */
  fault?: number
}

const EVERY = [1_000, 7_000, 60_000, 600_000, 3_600_000]

/**
 * Each cron the runs use, with other spellings of the very same timing: the stream must treat
 * them as one (an equivalent upsert changes nothing). The first spelling is the canonical one.
 */
export const CRONS: ReadonlyArray<ReadonlyArray<{ cron: string; timezone?: string }>> = [
  [{ cron: "* * * * *" }, { cron: "*  * * *  *" }, { cron: "* * * * *", timezone: "Etc/UTC" }],
  [{ cron: "*/5 * * * *" }, { cron: "0,5,10,15,20,25,30,35,40,45,50,55 * * * *", timezone: "UTC" }],
  [
    { cron: "0 * * * *", timezone: "Europe/Berlin" },
    { cron: "0 */1 * * *", timezone: "europe/berlin" },
  ],
  [
    { cron: "30 9 * * *", timezone: "America/New_York" },
    { cron: " 30 09 * * * ", timezone: "US/Eastern" },
  ],
]

/** The canonical names of the zones CRONS spells otherwise, as the runtime reports them. */
const ZONES: Record<string, string> = {
  "Etc/UTC": "UTC",
  "europe/berlin": "Europe/Berlin",
  "US/Eastern": "America/New_York",
}

/** A cron timing as the stream stores it: fields single-spaced, the zone's canonical name. */
export const stored = (cron: string, timezone = "UTC") => ({
  cron: cron.trim().split(/\s+/).join(" "),
  timezone: ZONES[timezone] ?? timezone,
})

/** One name for every spelling of the same cron timing (the family's first); itself when not in CRONS. */
export function canonicalCron(cron: string, timezone = "UTC"): string {
  const key = (t: { cron: string; timezone?: string }) => JSON.stringify(stored(t.cron, t.timezone))
  const wanted = key({ cron, timezone })
  const family = CRONS.find((f) => f.some((spelling) => key(spelling) === wanted))
  return family ? key(family[0] as { cron: string; timezone?: string }) : wanted
}

/** Retention windows a run's upserts may set: none kept, a minute, an hour. */
const RETENTIONS = [0, 60_000, 3_600_000]

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
      return random.chance(0.35) ? { at: "due" } : { at: random.int(-120_000, 600_000) }
    case "after":
      return { after: random.pick([1_000, 5_000, 30_000, 90_000, 600_000]) }
    case "every":
      return { every: random.pick(EVERY) }
    case "cron":
      return random.pick(random.pick(CRONS))
  }
}

/** The same timing spelled another way, when it is a cron of CRONS. */
function respelled(random: Random, timing: TimingChoice): TimingChoice | undefined {
  if (!("cron" in timing)) return undefined
  const family = CRONS.find((f) => f.some((s) => s.cron === timing.cron && s.timezone === timing.timezone))
  return family && random.pick(family)
}

/** A window, a count and a jitter for some upserts: mostly ones that fit, some that do not (refused as invalid). */
function rules(random: Random, step: Extract<Step, { op: "upsert" }>): void {
  const recurring = "every" in step.timing || "cron" in step.timing
  // A one-shot takes none of window and count: now and then one is sent anyway, to be refused.
  if (recurring || random.chance(0.05)) {
    if (random.chance(0.25)) step.startAt = random.pick([-3_600_000, -60_000, 0, 5_000, 90_000, 3_600_000])
    if (random.chance(0.25))
      step.endAt = (step.startAt ?? 0) + random.pick([-30_000, 0, 30_000, 300_000, 3_600_000, 86_400_000])
    if (random.chance(0.25)) step.times = random.int(1, 4)
  }
  if (random.chance(0.2)) step.jitter = random.pick([0, 400, 900, 5_000, 30_000, 600_000])
}

/** Ranges a backfill asks for: mostly a few occurrences back, sometimes more than the limit, or not in the past. */
function backfillRange(random: Random): { from: number; to: number } {
  const to = random.weighted<number>([
    [0, 3],
    [-random.int(1, 600_000), 6],
    [random.int(1, 60_000), 1],
  ])
  // Mostly a few occurrences: each backfilled one is a row the oracle reads on every step until retention deletes it.
  const width = random.weighted<number>([
    [0, 2],
    [random.int(1, 20_000), 6],
    [random.int(20_000, 120_000), 1],
    [random.int(3_600_000, 7_200_000), 1],
    [-random.int(1, 60_000), 1],
  ])
  return { from: to - width, to }
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
    ["malformed", 1],
  ],
  flaky: [
    ["ok", 35],
    ["retry", 20],
    ["throw", 15],
    ["terminal", 3],
    ["hang", 7],
    ["wait", 20],
    ["malformed", 3],
  ],
  down: [
    ["retry", 45],
    ["throw", 35],
    ["hang", 10],
    ["wait", 10],
    ["malformed", 3],
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
  const missing = new Set<ConsumerName>()
  const steps: Step[] = []
  for (let i = 0; i < count; i++) {
    // A deploy lacking a consumer lasts a while, then the next one brings it back.
    const gone = [...missing][0]
    if (gone !== undefined && random.chance(0.01)) {
      missing.delete(gone)
      steps.push({ op: "deploy", consumer: gone, present: true })
      continue
    }
    if (missing.size === 0 && random.chance(0.002)) {
      const consumer = random.pick(CONSUMERS)
      missing.add(consumer)
      steps.push({ op: "deploy", consumer, present: false })
      continue
    }
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
    const kind = random.weighted<Exclude<Step["op"], "deploy">>([
      ["upsert", 10],
      ["cancel", 3],
      ["resume", 3],
      ["trigger", 3],
      ["remove", 2],
      ["tick", 30],
      ["clock", 25],
      ["answer", 12],
      ["elapse", 6],
      ["evict", 2],
      ["restart", 3],
      ["backfill", 1],
    ])
    let step: Step
    switch (kind) {
      case "upsert": {
        const previous = last.get(id)
        // The same definition again (however spelled) must change nothing; a changed one retimes or updates.
        const again = previous && respelled(random, previous.timing)
        if (previous && random.chance(0.25)) {
          step = random.chance(0.5) ? previous : { ...previous, payload: random.int(0, 2) }
        } else if (previous && again && random.chance(0.3)) {
          step = { ...previous, timing: again }
        } else {
          step = {
            op: "upsert",
            id,
            consumer: random.pick(CONSUMERS),
            timing: timing(random),
            payload: random.int(0, 2),
          }
          if (random.chance(0.3)) step.maxAttempts = random.int(1, 4)
          if (random.chance(0.02)) step.retention = random.pick(RETENTIONS)
          rules(random, step)
        }
        last.set(id, step)
        break
      }
      case "cancel":
        step = random.chance(0.3)
          ? { op: kind, id, reason: random.pick(["paused by ops", "", "x".repeat(1_200)]) }
          : { op: kind, id }
        break
      case "backfill":
        step = { op: kind, id, ...backfillRange(random), dryRun: random.chance(0.25) }
        break
      case "resume":
      case "trigger":
      case "remove":
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
            ["malformed", 1],
          ]),
        }
        break
      case "elapse":
        step = { op: "elapse", ms: random.pick([100, 300, 1_000, 30_000]) }
        break
      case "evict":
        step = { op: "evict" }
        break
      case "restart":
        step = { op: "restart", pick: random.int(0, 7), via: random.chance(0.5) ? "resume" : "upsert" }
        break
    }
    if (random.chance(0.04)) step = { ...step, fault: random.int(0, 10) }
    steps.push(step)
  }
  return steps
}

function describeTiming(t: TimingChoice): string {
  if ("at" in t) return t.at === "due" ? "at=due" : `at=now${t.at >= 0 ? "+" : ""}${t.at}`
  if ("after" in t) return `after=${t.after}`
  if ("every" in t) return `every=${t.every}`
  return `cron="${t.cron}"${t.timezone ? ` tz=${t.timezone}` : ""}`
}

function describeRules(step: Extract<Step, { op: "upsert" }>): string {
  const rel = (ms: number) => `now${ms >= 0 ? "+" : ""}${ms}`
  return [
    step.startAt === undefined ? "" : ` startAt=${rel(step.startAt)}`,
    step.endAt === undefined ? "" : ` endAt=${rel(step.endAt)}`,
    step.times === undefined ? "" : ` times=${step.times}`,
    step.jitter === undefined ? "" : ` jitter=${step.jitter}`,
  ].join("")
}

/** One line per step, for failure reports. */
export function describe(step: Step): string {
  const fault = step.fault === undefined ? "" : `  [statement ${step.fault} fails]`
  switch (step.op) {
    case "upsert":
      return `upsert ${step.id} ${step.consumer} ${describeTiming(step.timing)}${
        step.maxAttempts === undefined ? "" : ` maxAttempts=${step.maxAttempts}`
      } payload=${step.payload}${step.retention === undefined ? "" : ` retention=${step.retention}`}${describeRules(step)}${fault}`
    case "cancel":
      return `cancel ${step.id}${step.reason === undefined ? "" : ` reason=${JSON.stringify(step.reason.slice(0, 20))}`}${fault}`
    case "backfill":
      return `backfill ${step.id} from now${step.from >= 0 ? "+" : ""}${step.from} to now${step.to >= 0 ? "+" : ""}${step.to}${step.dryRun ? " (dry run)" : ""}${fault}`
    case "resume":
    case "trigger":
    case "remove":
      return `${step.op} ${step.id}${fault}`
    case "deploy":
      return `deploy ${step.present ? "with" : "without"} ${step.consumer}${fault}`
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
    case "restart":
      return `cancel, then ${step.via}, the schedule of delivery #${step.pick} in flight${fault}`
  }
}
