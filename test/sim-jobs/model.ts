/**
 * The reference model: what each due slot of each job must have become, from what the world did to it.
 * It shares no code with src: a job is a name, a lease and the slots it was asked to run; a slot ends
 * ran, failed, skipped (with its reason) or missed. Each rule is a sentence of the issue or the seed.
 */

export const MINUTE = 60_000
/** A slot at most this far past the database's clock may be claimed (a replica's clock running ahead). */
export const TOLERANCE = 10_000

export type Reason = "paused" | "lease held" | "claim failed" | "claim timed out" | "slot taken"

/** What one attempt at a slot became: its claim refused because another run owns the slot, skipped, or won. */
export type Claim = { fate: "taken"; late?: boolean } | { fate: "skipped"; reason: Reason } | { fate: "won" }

export type Fault = "ok" | "fail" | "late"

export class JobModel {
  /** The newest slot a claim took; until when (database clock) its lease holds, null once released. */
  lastSlot = Number.NEGATIVE_INFINITY
  leaseUntil: number | null = null
  /** The run holding the lease released or not (an operator's release clears the holder, a failed one keeps it). */
  holder = false
  /** What each slot's record says (ran, failed, skipped), by slot. */
  readonly recorded = new Map<number, string>()
  /** The outcomes the runs' releases recorded, oldest first (the lease row's run history: no skipped slot). */
  readonly runs: string[] = []
  /** Every slot a claim took. */
  readonly claimed = new Set<number>()
  private firstRecorded = Number.POSITIVE_INFINITY
  readonly pauses: Array<{ from: number; to: number | null }> = []

  constructor(
    readonly name: string,
    readonly leaseMs: number,
    /** Whether the job's cron names the minute starting at a slot. */
    readonly names: (slot: number) => boolean,
  ) {}

  paused = () => this.pauses.some((pause) => pause.to === null)

  /**
   * A claim of `slot` at database time `at`; `release` is how the invocation's release batch fares, which carries
   * a skipped slot's history entry too. The heartbeat skips a job paused now before it claims.
   */
  claim(slot: number, at: number, fault: Fault, release: Fault, heartbeat: boolean): Claim {
    if (heartbeat && this.paused()) return { fate: "skipped", reason: "paused" }
    if (fault === "fail") return { fate: "skipped", reason: "claim failed" }
    const claim = this.decide(slot, at)
    if (claim.fate === "won") {
      this.lastSlot = slot
      this.claimed.add(slot)
      this.leaseUntil = at + this.leaseMs
      this.holder = true
    }
    if (fault === "late") {
      // An answer past the deadline is given up whatever it says; one that won is released and recorded as skipped.
      if (claim.fate === "won") this.settle(slot, "skipped", release)
      return { fate: "skipped", reason: "claim timed out" }
    }
    // A slot refused for a reason of its own (not another run's) has its one history entry: skipped.
    if (claim.fate === "skipped" || (claim.fate === "taken" && claim.late)) this.skip(slot, release)
    return claim.fate === "taken" && claim.late ? { fate: "skipped", reason: "slot taken" } : claim
  }

  /** The claim statement's verdict: a newer slot than any taken, the lease free, not ahead of the database. */
  private decide(slot: number, at: number): Claim {
    // A slot no run ever had, refused because a later one was claimed: no run will have it. One a run had, or whose
    // skip is recorded (its one entry, with its reason), is another's: nothing more is said of it.
    if (slot <= this.lastSlot)
      return this.claimed.has(slot) || this.recorded.has(slot) ? { fate: "taken" } : { fate: "taken", late: true }
    // A slot whose skip is recorded already (a replica's heartbeat, an earlier delivery) is said once.
    if (this.leaseUntil !== null && this.leaseUntil >= at)
      return this.recorded.has(slot) ? { fate: "taken" } : { fate: "skipped", reason: "lease held" }
    if (slot > at + TOLERANCE) return { fate: "taken" }
    return { fate: "won" }
  }

  /** A skipped slot's entry, unless its batch failed; a run of the slot outranks it. */
  private skip(slot: number, release: Fault): void {
    if (release === "fail" || this.recorded.has(slot)) return
    this.recorded.set(slot, "skipped")
    this.firstRecorded = Math.min(this.firstRecorded, slot)
  }

  /** A won slot's run ended `outcome`; its release committed (ok, late) or not (fail: the lease stays until it ends). */
  settle(slot: number, outcome: string, release: Fault): void {
    if (release === "fail") return
    this.recorded.set(slot, outcome)
    if (outcome !== "skipped") this.runs.push(outcome)
    if (this.runs.length > 40) this.runs.splice(0, 20)
    this.firstRecorded = Math.min(this.firstRecorded, slot)
    this.leaseUntil = null
    this.holder = false
  }

  /** An operator's release: the lease ends (forced, or already past), the slot stays taken. */
  release(at: number, force: boolean): "released" | "held" | "none" {
    if (this.lastSlot === Number.NEGATIVE_INFINITY) return "none"
    if (!force && this.leaseUntil !== null && this.leaseUntil > at) return "held"
    this.leaseUntil = null
    this.holder = false
    return "released"
  }

  /** The first slot anything was known of: before it, a slot says nothing. */
  knownSince(): number | null {
    const known = Math.min(this.firstRecorded, this.lastSlot)
    return Number.isFinite(known) ? known : null
  }

  /** What the history must say of `slot` at `now`. */
  status(slot: number, now: number): string {
    const record = this.recorded.get(slot)
    if (record !== undefined) return record
    if (slot === this.lastSlot) return "claimed"
    if (slot > now - MINUTE) return "due"
    // Issue 46: a pause made before its slot would count missed (a minute in) skips that slot as paused.
    if (this.pauses.some((pause) => pause.from < slot + MINUTE && (pause.to === null || slot < pause.to)))
      return "paused"
    const known = this.knownSince()
    return known === null || slot < known ? "unknown" : "missed"
  }

  /** A lease held past the job's next slot at `now` (health's heldLeases). */
  heldPastNext(now: number): boolean {
    if (!this.holder || this.leaseUntil === null || this.leaseUntil <= now) return false
    let next = this.lastSlot + MINUTE
    while (!this.names(next)) next += MINUTE
    return next <= now
  }
}
