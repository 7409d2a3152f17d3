import type { Seen } from "../support/consumers.ts"
import { KNOWN } from "./known.ts"
import type { Row } from "./rows.ts"
import type { Answer, Behaviour } from "./steps.ts"

export interface Violation {
  /** A stable name: the shrinker keeps a candidate only if it breaks the same rule. */
  rule: string
  message: string
}

/** One claim made by a tick, followed from its dispatch to its settlement. */
export interface Attempt {
  token: string
  id: string
  occurrence: number
  nextAt: number
  attempts: number
  claimUntil: number
  /** The object generation that claimed it; an eviction ends a generation. */
  epoch: number
  /** How often the row of this id had been swept when claimed: its keys start over after a sweep. */
  incarnation: number
  behaviour: Behaviour
  /** The consumer the row named when claimed, and whether the deploy lacked it then. */
  consumer: string
  missing: boolean
  /** The fake wall time at which the consumer's deadline fires. */
  deadline: number
  seen?: Seen
  parked?: { answer: (value?: unknown) => void; fail: (error: unknown) => void }
  answered?: Answer
  /** answered before its deadline, so the dispatch took that answer */
  answeredInTime?: boolean
  status: "in-flight" | "settled" | "settle-failed" | "lost"
  result?: string
}

export interface Counters {
  steps: number
  deliveries: number
  fired: number
  retries: number
  terminal: number
  skipped: number
  stale: number
  cancelled: number
  lostLeases: number
  lateAnswers: number
  evictions: number
  faults: number
  recoveries: number
  idleTicks: number
  /** Deliveries to a consumer the deploy lacked, upserts equivalent to the stored timing, retimes of a claimed due time. */
  missingConsumer: number
  respelled: number
  retimedInFlight: number
  swept: number
  removed: number
  /** Claims taken away by a caller while their delivery was in flight, with a live lease, and malformed outcomes. */
  withdrawn: number
  malformed: number
  /** Settlement groups, and the answers settled in groups of two or more. */
  groups: number
  grouped: number
  /** Claims of jittered rows and of backfilled occurrences; backfill rows created and backfills refused. */
  jittered: number
  backfillDelivered: number
  backfilled: number
  backfillRefused: number
  /** Schedules completed by their window or count; upserts whose window, count or jitter was refused; cancels with a reason. */
  ruleCompleted: number
  rulesRefused: number
  reasons: number
  /** Cadence points the specification let go (coalesced), each one's latest due time past when the one before settled. */
  coalesced: number
}

/** What the oracle believes about a run, beyond what storage says. */
export class Model {
  readonly violations: Violation[] = []
  /** Every claim of the run, by token. */
  readonly attempts = new Map<string, Attempt>()
  /** Claims of the live generation whose dispatch has not answered: they take a tick's room (BATCH_SIZE). */
  readonly inFlight = new Set<Attempt>()
  /** "wait" deliveries of the live generation not yet answered, oldest first (answered late or in time). */
  readonly parked = new Set<Attempt>()
  /** Cancelled or terminally failed, and not resumed or upserted since. */
  readonly stopped = new Set<string>()
  /** Occurrences that became due on a live schedule and were not yet delivered, skipped or stopped. */
  readonly owed = new Map<string, number>()
  /** While draining: occurrences due after this are not owed (recurring ones never end). */
  horizon = Number.POSITIVE_INFINITY
  /** The latest injected clock of the run: a lease it passed has ended, even if the clock went back since. */
  latestClock = Number.NEGATIVE_INFINITY
  /** Per id, how often its row was swept (retention). */
  readonly incarnation = new Map<string, number>()
  /** Every `<id>@<incarnation>` a created row drew: a new row of an id never repeats one (its keys would). */
  readonly incarnations = new Set<string>()
  rows = new Map<string, Row>()
  lastSeq = 0
  /** The last alarm write, and whether recover() made it. */
  alarmWrite: { value: number | null; recovery: boolean } | undefined
  /** Rows written by a settlement whose tick had yielded, and when (a mark), since an arm() read them. */
  readonly lateSettled = new Map<string, number>()
  /** The mark of a call that committed and then threw before it armed, until an arm() reads after it. */
  staleArm: number | undefined
  private marks = 0

  /** A point in the run's order of effects. */
  mark(): number {
    return ++this.marks
  }

  /** An arm() that read storage at `mark` has accounted for everything written before it. */
  armed(mark: number): void {
    for (const [id, at] of this.lateSettled) if (at < mark) this.lateSettled.delete(id)
    if (this.staleArm !== undefined && this.staleArm < mark) this.staleArm = undefined
  }
  readonly counters: Counters = {
    steps: 0,
    deliveries: 0,
    fired: 0,
    retries: 0,
    terminal: 0,
    skipped: 0,
    stale: 0,
    cancelled: 0,
    lostLeases: 0,
    lateAnswers: 0,
    evictions: 0,
    faults: 0,
    recoveries: 0,
    idleTicks: 0,
    missingConsumer: 0,
    respelled: 0,
    retimedInFlight: 0,
    swept: 0,
    removed: 0,
    withdrawn: 0,
    malformed: 0,
    groups: 0,
    grouped: 0,
    jittered: 0,
    backfillDelivered: 0,
    backfilled: 0,
    backfillRefused: 0,
    ruleCompleted: 0,
    rulesRefused: 0,
    reasons: 0,
    coalesced: 0,
  }

  /** Rules broken but known (KNOWN), counted instead of failing the run. */
  readonly known: Record<string, number> = {}

  constructor(private readonly tolerate: readonly string[] = Object.keys(KNOWN)) {}

  fail(rule: string, message: string): void {
    if (this.tolerate.includes(rule)) this.known[rule] = (this.known[rule] ?? 0) + 1
    else this.violations.push({ rule, message })
  }
}
