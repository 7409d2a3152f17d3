// Types for engine.js, slotwise 0.1.0's portable entry and statements (build.sh): only what the compatibility
// tests call, written by hand to match 0.1.0's source (commit 4ca12a7).

/** 0.1.0's JobLease: every column its drizzle schema names, lower_slot and jump_start included. */
export interface JobLease010 {
  name: string
  lastSlot: number
  leaseUntil: number | null
  holder: string | null
  lowerSlot: number | null
  jumpStart: number | null
  lastRunId: string | null
  lastOutcome: string | null
  runHistory: string
}

export interface Job010 {
  readonly name: string
  readonly exclusive: boolean
  readonly leaseMs: number
}

export interface JobContext010 {
  env: unknown
  signal: AbortSignal
  runId: string
  slot: Date
  once(itemKey: string, statements: readonly unknown[]): Promise<{ status: "applied" | "duplicate" }>
}

export interface RunResult010 {
  status: "ran" | "skipped" | "failed" | "timed-out"
  runId: string
  reason?: string
}

export declare const Jobs: {
  make(definition: {
    name: string
    cron: string
    exclusive: boolean
    timeout: string | number
    run: (slot: Date, ctx: JobContext010) => unknown
  }): Job010
  /** 0.1.0's boundary: its claim (the claimant's `now`), the run, its release with the run history. */
  run(
    job: Job010,
    slot: Date,
    deps: { env: { DB: D1Database }; now?: () => number; runId?: string },
  ): Promise<RunResult010>
}

export declare const Schedules: {
  stream(namespace: DurableObjectNamespace, name: string): StreamClient010
}

/** 0.1.0's client of one stream. */
export interface StreamClient010 {
  readonly name: string
  upsert(definition: Record<string, unknown>): Promise<ScheduleView010>
  get(id: string): Promise<ScheduleView010 | undefined>
  list(options?: { state?: string; limit?: number; cursor?: string }): Promise<{
    schedules: ScheduleView010[]
    cursor: string | null
  }>
  cancel(id: string): Promise<ScheduleView010>
  resume(id: string): Promise<ScheduleView010>
  trigger(id: string): Promise<ScheduleView010>
  remove(id: string): Promise<ScheduleView010>
  events(options?: { scheduleId?: string; limit?: number }): Promise<Array<Record<string, unknown> & { type: string }>>
}

export interface ScheduleView010 {
  id: string
  consumer: string
  state: string
  occurrence: number
  nextAt: number | null
  [field: string]: unknown
}

/** A drizzle database over a D1 binding, as 0.1.0 built it. */
export type Database010 = { readonly __brand: "slotwise 0.1.0 database" }
export declare function database(binding: D1Database): Database010
export declare function claimSlot(
  db: Database010,
  claim: { name: string; slot: number; now: number; leaseMs: number; holder: string },
): Promise<boolean>
export declare function releaseSlot(db: Database010, name: string, holder: string): Promise<boolean>
export declare function listLeases(db: Database010): Promise<JobLease010[]>
export declare function timeline(
  job: Job010,
  lease: JobLease010 | undefined,
  now: number,
): Array<{ slot: number; status: string; run: { runId: string; outcome: string } | null }>
export declare function commitOnce(
  db: D1Database,
  key: string,
  statements: readonly unknown[],
  now: number,
): Promise<{ status: "applied" | "duplicate" }>
