import { env } from "cloudflare:workers"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { Jobs } from "../../src/infra/index.ts"
import { activeTracer, noopTracer, type Tracer, useTracer } from "../../src/infra/tracing/index.ts"
import { workersTracer } from "../../src/infra/tracing/workers.ts"
import { resetConsumers, script } from "../support/consumers.ts"
import { keyOf, openStream, SECOND, T0, value } from "../support/streams.ts"
import { recordingTracer } from "../support/tracer.ts"

const SLOT = new Date(Date.UTC(2026, 10, 30, 4, 12))
let counter = 0
const job = (run: () => unknown, exclusive = true) =>
  Jobs.make({ name: `spans.job-${++counter}`, cron: "* * * * *", exclusive, timeout: "5 seconds", run })

describe("the job.run span on the Worker", () => {
  it("carries the job, slot, run id and outcome, and ends ok when the job ran", async () => {
    const tracer = recordingTracer()
    const ran = job(() => {})
    const result = await Jobs.run(ran, SLOT, { env, runId: "run-ok", tracer })
    expect(result.status).toBe("ran")
    expect(tracer.spans).toEqual([
      {
        name: "job.run",
        attributes: {
          "job.name": ran.name,
          "job.slot": "2026-11-30T04:12:00.000Z",
          "job.run_id": "run-ok",
          "job.outcome": "ran",
        },
        exceptions: [],
        status: { code: "ok" },
        ended: true,
      },
    ])
  })

  it("records the error a job threw and ends in error", async () => {
    const tracer = recordingTracer()
    const failing = job(() => {
      throw new TypeError("no such account")
    })
    expect((await Jobs.run(failing, SLOT, { env, tracer })).status).toBe("failed")
    const [span] = tracer.spans
    expect(span?.attributes["job.outcome"]).toBe("failed")
    expect(span?.exceptions).toEqual([expect.objectContaining({ name: "TypeError", message: "no such account" })])
    expect(span?.status).toEqual({ code: "error", message: "failed" })
  })

  it("leaves the status unset for a slot another run holds (the claim working, not the run's outcome), with the reason", async () => {
    const tracer = recordingTracer()
    const once = job(() => {})
    await Jobs.run(once, SLOT, { env })
    expect((await Jobs.run(once, SLOT, { env, tracer })).reason).toBe("slot taken")
    expect(tracer.spans[0]).toMatchObject({ attributes: { "job.outcome": "skipped", "job.reason": "slot taken" } })
    expect(tracer.spans[0]?.status).toBeUndefined()
  })

  it("goes through Workers tracing: enterSpan named job.run, handed the work, its answer passed back", async () => {
    const names: string[] = []
    const inner = recordingTracer()
    // A stand-in for cloudflare:workers' tracing, whose spans the test runtime does not expose.
    const enterSpan = (name: string, work: never) => {
      names.push(name)
      return inner.enterSpan(name, work)
    }
    const fake = { enterSpan: enterSpan as never }
    const result = await Jobs.run(
      job(() => {}),
      SLOT,
      { env, tracer: workersTracer(fake) },
    )
    expect(names).toEqual(["job.run"])
    expect(result.status).toBe("ran")
    expect(inner.spans[0]?.attributes["job.outcome"]).toBe("ran")
  })

  it("sets no attributes on a span the invocation does not trace (isTraced false), and still runs the work", async () => {
    const calls: string[] = []
    const untracedSpan = {
      isTraced: false,
      setAttribute: () => calls.push("setAttribute"),
      recordException: () => calls.push("recordException"),
      setStatus: () => calls.push("setStatus"),
    }
    const fake = { enterSpan: ((_name: string, work: (span: unknown) => unknown) => work(untracedSpan)) as never }
    const result = await Jobs.run(
      job(() => Promise.reject(new Error("boom"))),
      SLOT,
      { env, tracer: workersTracer(fake) },
    )
    expect(result.status).toBe("failed")
    expect(calls).toEqual([])
  })

  it("enters no span when the invocation's active span is not traced, and still runs the work", async () => {
    const names: string[] = []
    const fake = {
      enterSpan: ((name: string) => {
        names.push(name)
        throw new Error("enterSpan called for an untraced invocation")
      }) as never,
      getActiveSpan: (() => ({ isTraced: false })) as never,
    }
    const result = await Jobs.run(
      job(() => {}),
      SLOT,
      { env, tracer: workersTracer(fake) },
    )
    expect(result.status).toBe("ran")
    expect(names).toEqual([])
  })

  it("enters the span when the invocation's active span is traced", async () => {
    const names: string[] = []
    const inner = recordingTracer()
    const fake = {
      enterSpan: ((name: string, work: never) => {
        names.push(name)
        return inner.enterSpan(name, work)
      }) as never,
      getActiveSpan: (() => ({ isTraced: true })) as never,
    }
    await Jobs.run(
      job(() => {}),
      SLOT,
      { env, tracer: workersTracer(fake) },
    )
    expect(names).toEqual(["job.run"])
    expect(inner.spans[0]?.attributes["job.outcome"]).toBe("ran")
  })

  it("runs inside the real Workers tracing, which the Worker entry installs", async () => {
    // The test runtime's spans are not traced (isTraced is false), but the calls are the real ones.
    const result = await Jobs.run(
      job(() => Promise.reject(new Error("boom"))),
      SLOT,
      {
        env,
        tracer: workersTracer(),
      },
    )
    expect(result.status).toBe("failed")
    // test/support/worker.ts loads the slotwise (Workers) entry, which installs Workers tracing.
    expect(activeTracer()).not.toBe(noopTracer)
  })

  it("is enabled in wrangler.toml (Workers traces)", () => {
    expect(env.TEST_WRANGLER_TOML).toMatch(/\[observability\.traces\]\s*\nenabled = true/)
  })
})

describe("the schedule.deliver span", () => {
  let before: Tracer
  const tracer = recordingTracer()
  beforeEach(() => {
    resetConsumers()
    before = activeTracer()
    tracer.spans.length = 0
    useTracer(tracer)
  })
  afterEach(() => useTracer(before))

  it("wraps each delivery of a stream with its stream, schedule, occurrence, attempt, key and outcome", async () => {
    const stream = openStream("spans")
    value(await stream.upsert({ id: "flaky", consumer: "test.scripted", every: "1 minute" }))
    script.set("flaky", ["throw"])
    await stream.tick(T0 + 60 * SECOND)
    await stream.tick(T0 + 62 * SECOND)
    const deliveries = tracer.spans.filter((span) => span.name === "schedule.deliver")
    expect(deliveries.map((span) => span.attributes)).toEqual([
      {
        "schedule.stream": stream.name,
        "schedule.id": "flaky",
        "schedule.occurrence": 1,
        "schedule.attempt": 1,
        "schedule.idempotency_key": await keyOf(stream, "flaky", 1),
        "schedule.outcome": "retry",
      },
      expect.objectContaining({ "schedule.attempt": 2, "schedule.outcome": "delivered" }),
    ])
    expect(deliveries[0]?.exceptions).toEqual([expect.objectContaining({ message: "scripted throw on attempt 1" })])
    expect(deliveries.map((span) => span.status?.code)).toEqual(["error", "ok"])
    expect(deliveries.every((span) => span.ended)).toBe(true)
  })
})
