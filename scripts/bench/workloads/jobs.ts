import { env } from "cloudflare:test"
import { beat } from "../../../src/infra/jobs/handlers/heartbeat.ts"
import { type Job, Jobs } from "../../../src/infra/jobs/index.ts"
import { CLAIM_TEXT_AT, claimJson } from "../../../src/infra/jobs/protocol/slot-claim.ts"
import { type D1Count, meteredD1 } from "../d1-meter.ts"
import { figure, note, progress } from "../result.ts"
import { round } from "./common.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const LEASE = 2 * MINUTE
/** Each size's heartbeats at hours of their own, far from the other workloads' rows. */
const T = Date.UTC(2101, 0, 1)

/** What a team writes today (the seed's upsert): each due job claimed by its own statement, released by another. */
const SEED_CLAIM = `INSERT INTO jobs_leases (name, last_slot, lease_until, holder) VALUES (?, ?, ?, ?)
ON CONFLICT (name) DO UPDATE SET last_slot = excluded.last_slot, lease_until = excluded.lease_until, holder = excluded.holder
WHERE jobs_leases.last_slot < excluded.last_slot
  AND (jobs_leases.lease_until IS NULL OR jobs_leases.lease_until < ? OR jobs_leases.lease_until > ?)
RETURNING name`
/** The largest N the hand-written floor runs at: 2,000 queries, twice the paid plan's limit an invocation already. */
const PER_JOB_MAX = 1_000
const SEED_RELEASE = "UPDATE jobs_leases SET lease_until = NULL, holder = NULL WHERE name = ? AND holder = ?"

interface Beat {
  wallMs: number
  d1: D1Count
  ran: number
  /** How the runs that did not run ended, by reason, for the error that says so. */
  others?: Record<string, number>
}

const jobsOf = (prefix: string, n: number, exclusive: boolean): readonly Job[] =>
  Jobs.registry(
    Array.from({ length: n }, (_, i) =>
      Jobs.make({ name: `${prefix}-${i}`, cron: "* * * * *", exclusive, timeout: "1 minute", run: () => {} }),
    ),
    { plan: "paid" },
  )

/** `work` with the console quiet: the runs' log lines are built, as always, but not printed among the bench's. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const methods = ["log", "info", "warn", "error", "debug"] as const
  const saved = methods.map((method) => console[method])
  for (const method of methods) console[method] = () => {}
  try {
    return await work()
  } finally {
    methods.forEach((method, i) => {
      console[method] = saved[i] as never
    })
  }
}

/** One slotwise heartbeat of `list` at `slot`, on a metered D1, the database's clock a second past the slot. */
async function slotwiseBeat(list: readonly Job[], slot: number): Promise<Beat> {
  const meter = meteredD1(env.DB)
  const started = Date.now()
  const results = await quietly(() => beat(list, slot, { ...env, DB: meter.db } as never, { now: () => slot + 1_000 }))
  const others: Record<string, number> = {}
  for (const r of results)
    if (r.status !== "ran") others[`${r.status} ${r.reason ?? ""}`] = (others[`${r.status} ${r.reason ?? ""}`] ?? 0) + 1
  return {
    wallMs: Date.now() - started,
    d1: meter.read(),
    ran: results.length - Object.values(others).reduce((a, b) => a + b, 0),
    others,
  }
}

/** The hand-written floor: each job's claim and release, its own statements, all at once. */
async function perJobBeat(names: readonly string[], slot: number): Promise<Beat> {
  const meter = meteredD1(env.DB)
  const now = slot + 1_000
  const started = Date.now()
  const ran = await Promise.all(
    names.map(async (name) => {
      const holder = `${name}@${slot}`
      const won = await meter.db
        .prepare(SEED_CLAIM)
        .bind(name, slot, now + LEASE, holder, now, now + 2 * LEASE)
        .all()
      if (won.results.length === 0) return 0
      await meter.db.prepare(SEED_RELEASE).bind(name, holder).run()
      return 1
    }),
  )
  return { wallMs: Date.now() - started, d1: meter.read(), ran: ran.reduce<number>((a, b) => a + b, 0) }
}

/** The other floor: slotwise's claim statement alone for all N (no run, no release). */
async function claimAlone(names: readonly string[], slot: number): Promise<Beat> {
  const meter = meteredD1(env.DB)
  const json = claimJson(names.map((name) => ({ name, slot, leaseMs: LEASE, holder: `${name}@${slot}` })))
  const started = Date.now()
  const { results } = await meter.db
    .prepare(CLAIM_TEXT_AT)
    .bind(slot + 1_000, json)
    .all()
  const wallMs = Date.now() - started
  // Released unmetered, so that the next minute's claim is the steady state's.
  await env.DB.prepare("UPDATE jobs_leases SET lease_until = NULL, holder = NULL WHERE name LIKE ?")
    .bind(`${names[0]?.replace(/-\d+$/, "")}-%`)
    .run()
  return { wallMs, d1: meter.read(), ran: results.length }
}

/**
 * jobs: N due jobs in one heartbeat (N = `sizes`), exclusive and not, against two floors measured beside it in
 * the same run: a hand-written Worker claiming and releasing each job with its own upsert, and slotwise's claim
 * statement alone for all N. Figures of the steady state (the second minute: the lease rows exist), a job's
 * first run, and a run that turns the hour; rows as D1 reports them. CPU is measured in Node (jobs-cpu.ts).
 */
export async function jobs(sizes: readonly number[]) {
  for (const [s, n] of sizes.entries()) {
    const hour = T + s * 4 * HOUR
    const label = n.toLocaleString("en-US")
    progress(`jobs ${label}: slotwise, exclusive and not`)
    const list = jobsOf(`bench.jobs-${n}`, n, true)
    const first = await slotwiseBeat(list, hour + 10 * MINUTE)
    const steady = await slotwiseBeat(list, hour + 11 * MINUTE)
    const turn = await slotwiseBeat(list, hour + HOUR)
    const loose = await slotwiseBeat(jobsOf(`bench.loose-${n}`, n, false), hour + 10 * MINUTE)
    progress(`jobs ${label}: the floors`)
    const names = Array.from({ length: n }, (_, i) => `bench.seed-${n}-${i}`)
    // Past PER_JOB_MAX the hand-written floor is not run: 2 queries a job, past the paid plan's 1,000 an invocation.
    const seed =
      n <= PER_JOB_MAX
        ? await perJobBeat(names, hour + 10 * MINUTE).then(() => perJobBeat(names, hour + 11 * MINUTE))
        : undefined
    const claimNames = Array.from({ length: n }, (_, i) => `bench.claim-${n}-${i}`)
    await claimAlone(claimNames, hour + 10 * MINUTE)
    const alone = await claimAlone(claimNames, hour + 11 * MINUTE)
    for (const b of [first, steady, turn, loose, seed])
      if (b !== undefined && b.ran !== n)
        throw new Error(`jobs ${label}: ${b.ran} of ${n} ran (${JSON.stringify(b.others)})`)
    if (alone.ran !== n) throw new Error(`jobs ${label}: the claim statement won ${alone.ran} of ${n}`)

    const workload = `jobs ${label} exclusive`
    const per = (count: number) => round(count / n, 2)
    figure(workload, "heartbeat wall ms", { slotwise: steady.wallMs })
    figure(workload, "D1 queries / heartbeat", { slotwise: steady.d1.queries })
    figure(workload, "statements / heartbeat", { slotwise: steady.d1.statements })
    figure(workload, "rows read / run", { slotwise: per(steady.d1.rowsRead) })
    figure(workload, "rows written / run", { slotwise: per(steady.d1.rowsWritten) })
    figure(workload, "rows written / run, a job's first", { slotwise: per(first.d1.rowsWritten) })
    figure(workload, "rows written / run, the hour turning", { slotwise: per(turn.d1.rowsWritten) })
    figure(workload, "D1 queries / heartbeat, the hour turning", { slotwise: turn.d1.queries })
    if (seed) {
      figure(workload, "floor, per-job upsert: heartbeat wall ms", { slotwise: seed.wallMs })
      figure(workload, "floor, per-job upsert: D1 queries / heartbeat", { slotwise: seed.d1.queries })
      figure(workload, "floor, per-job upsert: rows read / run", { slotwise: per(seed.d1.rowsRead) })
      figure(workload, "floor, per-job upsert: rows written / run", { slotwise: per(seed.d1.rowsWritten) })
    } else note(workload, `the per-job upsert floor is not run past ${PER_JOB_MAX.toLocaleString("en-US")} jobs`)
    figure(workload, "floor, claim statement alone: wall ms", { slotwise: alone.wallMs })
    figure(workload, "floor, claim statement alone: rows read / job", { slotwise: per(alone.d1.rowsRead) })
    figure(workload, "floor, claim statement alone: rows written / job", { slotwise: per(alone.d1.rowsWritten) })
    const notExclusive = `jobs ${label} not exclusive`
    figure(notExclusive, "heartbeat wall ms", { slotwise: loose.wallMs })
    figure(notExclusive, "D1 queries / heartbeat", { slotwise: loose.d1.queries })
  }
}
