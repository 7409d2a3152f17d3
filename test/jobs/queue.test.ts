import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { eq } from "drizzle-orm"
import { describe, expect, it, vi } from "vitest"
import type { JobView } from "../../src/infra/admin/answers.ts"
import { database, jobsLeases } from "../../src/infra/db/index.ts"
import { PLANS } from "../../src/infra/jobs/contract/capacity.ts"
import { batchesOf } from "../../src/infra/jobs/contract/job-message.ts"
import { runsOf } from "../../src/infra/jobs/contract/record.ts"
import { slotOf } from "../../src/infra/jobs/contract/slot.ts"
import { handOff } from "../../src/infra/jobs/handlers/hand-off.ts"
import { HEARTBEAT_CRON } from "../../src/infra/jobs/handlers/heartbeat.ts"
import { handleMessages } from "../../src/infra/jobs/handlers/queue-handler.ts"
import { type Job, type JobMessage, Jobs, QueueBindingError } from "../../src/infra/jobs/index.ts"
import { adminFetch, json } from "../support/admin.ts"
import { limitedD1 } from "../support/fault.ts"
import { captureLogs } from "../support/logs.ts"
import { queuedJobs, queuedRuns, RUNS_LONG, THROWS } from "../support/queued-jobs.ts"
import { workerJobs } from "../support/worker.ts"

const logs = captureLogs()
const db = database(env.DB)
const MINUTE = 60_000
const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 30, hh, mm, ss)
const leaseOf = (name: string) => db.select().from(jobsLeases).where(eq(jobsLeases.name, name)).get()

let made = 0
const job = (run: Job["run"], extra: Partial<Parameters<typeof Jobs.make>[0]> = {}) =>
  Jobs.make({ name: `queue.job-${++made}`, cron: "* * * * *", exclusive: true, timeout: "1 second", run, ...extra })

/** Fires a heartbeat at `scheduledTime` as Cloudflare would, and waits for all it handed to waitUntil. */
async function fire(
  scheduled: ReturnType<typeof Jobs.heartbeat>,
  scheduledTime: number,
  fireEnv: Cloudflare.Env = env,
) {
  const ctx = createExecutionContext()
  await scheduled({ scheduledTime, cron: HEARTBEAT_CRON, noRetry: () => {} }, fireEnv, ctx)
  await waitOnExecutionContext(ctx)
}

/** The real Queue binding, with every sendBatch call's messages kept: what was sent still reaches the queue. */
function recording(queue: Queue) {
  const calls: Array<Array<{ body: JobMessage; contentType?: string }>> = []
  const binding = {
    send: (body: unknown, options?: QueueSendOptions) => queue.send(body, options),
    sendBatch: (messages: Iterable<MessageSendRequest<JobMessage>>, options?: QueueSendBatchOptions) => {
      calls.push([...messages] as Array<{ body: JobMessage; contentType?: string }>)
      return queue.sendBatch(calls.at(-1) as Iterable<MessageSendRequest>, options)
    },
  }
  return { binding: binding as unknown as Queue, calls }
}

/** A batch as the Queues runtime hands a consumer, one message per body, each on its `attempts`th delivery. */
const batchOf = (bodies: unknown[], attempts = 1) =>
  createMessageBatch(
    "slotwise-jobs",
    bodies.map((body, i) => ({ id: `m${i}-${attempts}`, timestamp: new Date(at(12, 0)), attempts, body })),
  )

/** Runs `handler` on `batch` in an invocation of its own and answers which messages it acked and retried. */
async function deliver(handler: ReturnType<typeof Jobs.queue>, batch: MessageBatch<unknown>) {
  const ctx = createExecutionContext()
  await handler(batch, env, ctx)
  const result = await getQueueResult(batch, ctx)
  return { acked: [...result.explicitAcks].sort(), retried: result.retryMessages, ackAll: result.ackAll }
}

describe("Jobs.heartbeat with a queue", () => {
  it("sends exactly one message { job, slot } per due job, in batches of at most 100, and runs nothing itself", async () => {
    let runs = 0
    const due = Array.from({ length: 130 }, () => job(() => void runs++))
    const notDue = job(() => void runs++, { cron: "0 3 * * *" })
    const held = recording(env.HELD_JOBS)
    await fire(Jobs.heartbeat([...due, notDue], { queue: "HELD_JOBS" }), at(12, 0, 42), {
      ...env,
      HELD_JOBS: held.binding,
    })

    expect(held.calls.map((call) => call.length)).toEqual([100, 30])
    const sent = held.calls.flat()
    expect(sent.map((message) => message.body.job).sort()).toEqual(due.map((j) => j.name).sort())
    // The slot, floored to its minute: never the time the heartbeat happened to fire.
    expect(new Set(sent.map((message) => message.body.slot))).toEqual(new Set([new Date(at(12, 0)).toISOString()]))
    expect(new Set(sent.map((message) => message.contentType))).toEqual(new Set(["json"]))
    expect(runs).toBe(0)
    expect(await leaseOf(due[0]?.name as string)).toBeUndefined()
    expect(logs.of("jobs.hand-off")).toEqual([
      expect.objectContaining({
        queue: "HELD_JOBS",
        outcome: "sent",
        sent: 130,
        slot: new Date(at(12, 0)).toISOString(),
      }),
    ])
  })

  it("without the queue option runs the due jobs in its own invocation and sends nothing", async () => {
    let runs = 0
    const inProcess = job(() => void runs++)
    const held = recording(env.HELD_JOBS)
    await fire(Jobs.heartbeat([inProcess]), at(12, 5), { ...env, HELD_JOBS: held.binding })
    expect(runs).toBe(1)
    expect(held.calls).toEqual([])
    expect(await leaseOf(inProcess.name)).toMatchObject({ lastSlot: at(12, 5), holder: null })
  })

  it("throws naming the binding when env has none by that name or it is not a Queue, and runs nothing", async () => {
    let runs = 0
    const jobs = [job(() => void runs++)]
    await expect(fire(Jobs.heartbeat(jobs, { queue: "MISSING_JOBS" }), at(12, 10))).rejects.toThrow(
      new QueueBindingError(
        'Jobs.heartbeat: queue "MISSING_JOBS" is not in the Worker\'s env: declare it under [[queues.producers]] (binding = "MISSING_JOBS") in wrangler.toml',
      ),
    )
    await expect(fire(Jobs.heartbeat(jobs, { queue: "DB" }), at(12, 10))).rejects.toThrow(
      'Jobs.heartbeat: queue "DB" is not a Queue producer binding (it has no sendBatch)',
    )
    expect(runs).toBe(0)
    expect(() => Jobs.heartbeat(jobs, { queue: "" })).toThrow(/Jobs\.heartbeat: queue must be/)
    expect(() => Jobs.heartbeat(jobs, { queue: 7 as unknown as string })).toThrow(/Jobs\.heartbeat: queue must be/)
  })

  it("logs a refused batch once with its jobs and still sends the other", async () => {
    const due = Array.from({ length: 101 }, () => job(() => {}))
    const held = recording(env.HELD_JOBS)
    let calls = 0
    const refusing = {
      sendBatch: (messages: Iterable<MessageSendRequest<JobMessage>>) =>
        ++calls === 1 ? Promise.reject(new Error("Queue sendBatch failed")) : held.binding.sendBatch(messages),
    }
    await fire(Jobs.heartbeat(due, { queue: "HELD_JOBS" }), at(12, 15), {
      ...env,
      HELD_JOBS: refusing as unknown as Queue,
    })
    expect(held.calls.map((call) => call.length)).toEqual([1])
    const [failed, sent] = [
      logs.of("jobs.hand-off").filter((l) => l.outcome === "failed"),
      logs.of("jobs.hand-off").filter((l) => l.outcome === "sent"),
    ]
    expect(failed).toEqual([expect.objectContaining({ queue: "HELD_JOBS", error: "Error: Queue sendBatch failed" })])
    expect(failed[0]?.jobs).toHaveLength(100)
    expect(sent).toEqual([expect.objectContaining({ sent: 1 })])
  })
})

describe("a slot the hand-off does not hand off (issue 45)", () => {
  const hourRow = async (name: string, slot: number) =>
    (
      await env.DB.prepare("select runs from jobs_run_hours where job = ? and hour = ?")
        .bind(name, slot - (slot % 3_600_000))
        .first<{ runs: string }>()
    )?.runs

  it("says the Queue refused it, a line a job, and leaves its skipped entry in the history", async () => {
    const due = Array.from({ length: 3 }, () => job(() => {}))
    const refusing = { sendBatch: () => Promise.reject(new Error("Queue sendBatch failed")) }
    const slot = at(12, 16)
    await fire(Jobs.heartbeat(due, { queue: "HELD_JOBS" }), slot, { ...env, HELD_JOBS: refusing as unknown as Queue })
    const lines = logs.of("job.run").filter((l) => l.reason === "queue refused")
    expect(lines.map((l) => l.job).sort()).toEqual(due.map((j) => j.name).sort())
    expect(lines[0]).toMatchObject({ level: "error", outcome: "skipped", error: "Error: Queue sendBatch failed" })
    for (const { name } of due) expect(await hourRow(name, slot)).toBe("16:s:0:q")
  })

  it("says over capacity past the invocation's sendBatch calls, and hands the slot over for its entry", async () => {
    const due = Array.from({ length: 2 }, () => job(() => {}))
    const skipped: unknown[] = []
    const queue = { sendBatch: async () => ({}) as QueueSendBatchResponse }
    await handOff(due, at(12, 17), queue, "JOBS", 0, (skip) => void skipped.push(skip))
    expect(logs.of("job.run").filter((l) => l.reason === "over capacity")).toHaveLength(2)
    expect(skipped).toEqual(due.map((j) => ({ name: j.name, slot: at(12, 17), reason: "over capacity" })))
  })

  it("records an overflow queue's refusal with the heartbeat's releases", async () => {
    const list = Jobs.registry(
      Array.from({ length: 12 }, () => job(() => {})),
      { plan: { ...PLANS.free, cpuMs: 1 }, overflowQueue: "OVERFLOW" },
    )
    const refusing = { sendBatch: () => Promise.reject(new Error("Queue sendBatch failed")) }
    const slot = at(12, 18)
    await fire(Jobs.heartbeat(list), slot, { ...env, OVERFLOW: refusing } as never)
    const refused = logs.of("job.run").filter((l) => l.reason === "queue refused")
    expect(refused).toHaveLength(2)
    for (const line of refused) expect(await hourRow(line.job as string, slot)).toBe("18:s:0:q")
  })
})

describe("Jobs.queue, the consumer", () => {
  it("runs twenty jobs due in one minute, each in its own delivery: one throws, one runs long, the rest run once on their slot", async () => {
    const slot = at(13, 0)
    // Through the real queue: the heartbeat sends, and the tests' Worker consumes one message per invocation.
    await fire(Jobs.heartbeat(queuedJobs, { queue: "JOBS" }), slot + 17_000)
    // Handed over, not run here (the first test shows the heartbeat runs nothing itself): the consumer runs them.
    expect(logs.of("jobs.hand-off")).toEqual([expect.objectContaining({ queue: "JOBS", outcome: "sent", sent: 20 })])
    await vi.waitFor(
      async () => {
        const rows = await Promise.all(queuedJobs.map((j) => leaseOf(j.name)))
        expect(rows.map((row) => [row?.lastSlot, row?.holder])).toEqual(queuedJobs.map(() => [slot, null]))
      },
      { timeout: 20_000, interval: 100 },
    )
    const ran = queuedRuns.filter((r) => r.slot === slot)
    expect(ran.map((r) => r.job).sort()).toEqual(queuedJobs.map((j) => j.name))
    const outcomes = Object.fromEntries(
      await Promise.all(
        queuedJobs.map(async (j) => [j.name, runsOf(await leaseOf(j.name)).map((r) => [r.slot, r.outcome])]),
      ),
    )
    for (const j of queuedJobs) {
      const expected = j.name === THROWS ? "failed" : j.name === RUNS_LONG ? "timed-out" : "ran"
      expect([j.name, outcomes[j.name]]).toEqual([j.name, [[slot, expected]]])
    }
  })

  it("acks every message after its run, failed or timed out included, and retries none", async () => {
    const slot = new Date(at(14, 0)).toISOString()
    const jobs = [
      job(() => {}),
      job(() => {
        throw new Error("boom")
      }),
      job(() => new Promise(() => {})),
    ]
    const handler = Jobs.queue(jobs)
    const result = await deliver(handler, batchOf(jobs.map((j) => ({ job: j.name, slot }))))
    expect(result).toEqual({ acked: ["m0-1", "m1-1", "m2-1"], retried: [], ackAll: false })
    expect(logs.of("job.run").map((l) => [l.job, l.outcome, l.slot])).toEqual(
      expect.arrayContaining([
        [jobs[0]?.name, "ran", slot],
        [jobs[1]?.name, "failed", slot],
        [jobs[2]?.name, "timed-out", slot],
      ]),
    )
  })

  it("claims a batch's slots in one statement and releases its runs in one D1 batch: 2 queries for 50 messages, whatever their slots", async () => {
    const jobs = Array.from({ length: 50 }, () => job(() => {}))
    // Two slots of the batch: a batch may hold messages of several minutes.
    const bodies = jobs.map((j, i) => ({ job: j.name, slot: at(17, i % 2) }))
    const { db: DB, counter } = limitedD1(env.DB, 1_000)
    const results = await handleMessages(jobs, batchOf(bodies), { ...env, DB }, { now: () => at(17, 1, 30) })
    expect(results.map((r) => r.status)).toEqual(jobs.map(() => "ran"))
    expect(counter).toEqual({ queries: 2, refused: 0 })
    // The same job twice in a batch (two of its slots): only its newer slot is claimed (it does what is due as of
    // it); the older is skipped as taken, said once, with no query of its own beyond the batch's lookup.
    const twice = job(() => {})
    const again = await handleMessages(
      [twice],
      batchOf([
        { job: twice.name, slot: at(18, 0) },
        { job: twice.name, slot: at(18, 1) },
      ]),
      env,
      { now: () => at(18, 1, 30) },
    )
    expect(again.map((r) => [r.status, r.reason])).toEqual([
      ["skipped", "slot taken"],
      ["ran", undefined],
    ])
    expect(logs.of("job.run").filter((l) => l.job === twice.name && l.outcome === "skipped")).toEqual([
      expect.objectContaining({ level: "warn", reason: "slot taken", slot: new Date(at(18, 0)).toISOString() }),
    ])
  })

  it("runs nothing for a redelivered message: the slot's lease is taken", async () => {
    let runs = 0
    const exclusive = job(() => void runs++)
    const body = { job: exclusive.name, slot: at(15, 0) }
    const now = () => at(15, 0, 30)
    expect(await handleMessages([exclusive], batchOf([body]), env, { now })).toEqual([
      expect.objectContaining({ job: exclusive.name, status: "ran" }),
    ])
    // The same message again, as Queues may deliver it, later in the same minute and well after it.
    expect(await handleMessages([exclusive], batchOf([body], 2), env, { now: () => at(15, 0, 50) })).toEqual([
      expect.objectContaining({ status: "skipped", reason: "slot taken" }),
    ])
    expect(await deliver(Jobs.queue([exclusive]), batchOf([body], 3))).toMatchObject({ acked: ["m0-3"], retried: [] })
    expect(runs).toBe(1)
    expect(runsOf(await leaseOf(exclusive.name))).toHaveLength(1)
  })

  it("runs a non-exclusive job again on a redelivery: best effort, as a repeated fire does", async () => {
    let runs = 0
    const shared = job(() => void runs++, { exclusive: false })
    const body = { job: shared.name, slot: new Date(at(16, 0)).toISOString() }
    await handleMessages([shared], batchOf([body]), env)
    await handleMessages([shared], batchOf([body], 2), env)
    expect(runs).toBe(2)
  })

  it("acks a body naming no job or no valid slot, with one error line naming the field, and runs nothing", async () => {
    let runs = 0
    const known = job(() => void runs++)
    const slot = new Date(at(17, 0)).toISOString()
    const bodies = [
      "run it",
      null,
      [known.name],
      { slot },
      { job: "nobody.here", slot },
      { job: known.name },
      { job: known.name, slot: "yesterday" },
    ]
    const result = await deliver(Jobs.queue([known]), batchOf(bodies))
    expect(result).toEqual({ acked: bodies.map((_, i) => `m${i}-1`), retried: [], ackAll: false })
    expect(runs).toBe(0)
    expect(logs.of("job.message").map((l) => [l.messageId, l.field, l.level])).toEqual([
      ["m0-1", "body", "error"],
      ["m1-1", "body", "error"],
      ["m2-1", "body", "error"],
      ["m3-1", "job", "error"],
      ["m4-1", "job", "error"],
      ["m5-1", "slot", "error"],
      ["m6-1", "slot", "error"],
    ])
    expect(logs.of("job.message")[4]).toMatchObject({ queue: "slotwise-jobs", reason: 'no job named "nobody.here"' })
  })

  it("shows a job run through the queue in admin's run history for that job", async () => {
    const slot = slotOf(Date.now() - MINUTE).getTime()
    const ROLL_UP = "billing.roll-up-usage"
    await fire(Jobs.heartbeat(workerJobs, { queue: "JOBS" }), slot)
    expect(logs.of("jobs.hand-off")).toEqual([expect.objectContaining({ queue: "JOBS", outcome: "sent" })])
    await vi.waitFor(async () => expect(await leaseOf(ROLL_UP)).toMatchObject({ lastSlot: slot, holder: null }), {
      timeout: 20_000,
      interval: 100,
    })
    const answer = await json(await adminFetch("/admin/jobs"))
    const view = (answer.jobs as JobView[]).find((j) => j.name === ROLL_UP)
    expect(view?.lastRun).toMatchObject({ slot, outcome: "ran" })
    expect(view?.slots).toEqual(expect.arrayContaining([expect.objectContaining({ slot, status: "ran" })]))
  })
})

describe("job messages", () => {
  it("cuts sendBatch calls at 100 messages or at the byte limit, whichever comes first, in order", () => {
    const messages = Array.from({ length: 5 }, (_, i) => ({ job: `j${i}`, slot: new Date(at(18, 0)).toISOString() }))
    const size = JSON.stringify(messages[0]).length
    const names = (batches: Array<Array<{ job: string }>>) => batches.map((batch) => batch.map((m) => m.job))
    expect(names(batchesOf(messages, 2))).toEqual([["j0", "j1"], ["j2", "j3"], ["j4"]])
    expect(names(batchesOf(messages, 100, size * 3))).toEqual([
      ["j0", "j1", "j2"],
      ["j3", "j4"],
    ])
    expect(batchesOf([])).toEqual([])
  })
})
