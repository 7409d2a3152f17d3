import type { Client } from "@libsql/client"
import { context, SpanStatusCode, trace } from "@opentelemetry/api"
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks"
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { Container } from "../../src/infra/node/index.ts"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { unrecordedSpans } from "../../src/infra/node/unrecorded-spans.ts"
import { Jobs } from "../../src/infra/portable.ts"
import { consumer } from "../../src/infra/schedules/contract/consumer.ts"
import { dispatch } from "../../src/infra/schedules/stream/dispatch.ts"
import { migratedDatabase } from "./engines.ts"

const SLOT = new Date(Date.UTC(2026, 10, 30, 4, 12))
let counter = 0
const job = (run: () => unknown) =>
  Jobs.make({ name: `spans.node-${++counter}`, cron: "* * * * *", exclusive: true, timeout: "5 seconds", run })

/** The real SDK registered as an application registers it: a global provider and an async context manager. */
function registerSdk(processorOf: (exporter: InMemorySpanExporter) => SpanProcessor) {
  const exporter = new InMemorySpanExporter()
  const provider = new TracerProvider({ spanProcessors: [processorOf(exporter)] })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  trace.setGlobalTracerProvider(provider)
  return { exporter, provider }
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name)

/** Resolves when `open` is called: a job that runs until the test lets it go. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, opened }
}

describe("spans on the container profile, through the OpenTelemetry SDK", () => {
  let client: Client
  let env: ReturnType<typeof createRuntime>["env"]
  let sdk: ReturnType<typeof registerSdk> | undefined
  beforeAll(async () => {
    client = (await migratedDatabase()).client
    env = createRuntime({ jobs: [], client }).env
  })
  afterEach(async () => {
    await sdk?.provider.shutdown()
    sdk = undefined
    trace.disable()
    context.disable()
  })
  afterAll(() => client.close())

  it("exports Jobs.run's job.run span with its attributes, the error recorded and status error", async () => {
    sdk = registerSdk((exporter) => new SimpleSpanProcessor({ exporter }))
    const failing = job(() => {
      throw new RangeError("quota exceeded")
    })
    expect((await Jobs.run(failing, SLOT, { env, runId: "run-1" })).status).toBe("failed")
    const [span, ...more] = sdk.exporter.getFinishedSpans()
    expect(more).toEqual([])
    expect(span?.name).toBe("job.run")
    expect(span?.instrumentationScope.name).toBe("slotwise")
    expect(span?.attributes).toEqual({
      "job.name": failing.name,
      "job.slot": "2026-11-30T04:12:00.000Z",
      "job.run_id": "run-1",
      "job.outcome": "failed",
    })
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "failed" })
    expect(span?.events.map((event) => [event.name, event.attributes])).toEqual([
      ["exception", expect.objectContaining({ "exception.type": "RangeError", "exception.message": "quota exceeded" })],
    ])
  })

  it("makes job.run a child of the span active where the run was called", async () => {
    sdk = registerSdk((exporter) => new SimpleSpanProcessor({ exporter }))
    const ran = job(() => {})
    await trace.getTracer("app").startActiveSpan("request", async (request) => {
      await Jobs.run(ran, SLOT, { env })
      request.end()
    })
    const [run] = named(sdk.exporter.getFinishedSpans(), "job.run")
    const [request] = named(sdk.exporter.getFinishedSpans(), "request")
    expect(run?.status).toEqual({ code: SpanStatusCode.OK })
    expect(run?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId)
  })

  it("leaves the status unset on a run refused because another run holds the slot", async () => {
    sdk = registerSdk((exporter) => new SimpleSpanProcessor({ exporter }))
    const once = job(() => {})
    await Jobs.run(once, SLOT, { env })
    expect((await Jobs.run(once, SLOT, { env })).reason).toBe("slot taken")
    const refused = sdk.exporter.getFinishedSpans()[1]
    expect(refused?.attributes).toMatchObject({ "job.outcome": "skipped", "job.reason": "slot taken" })
    expect(refused?.status).toEqual({ code: SpanStatusCode.UNSET })
  })

  it("exports a delivery's schedule.deliver span with its attributes, the consumer's throw and status error", async () => {
    sdk = registerSdk((exporter) => new SimpleSpanProcessor({ exporter }))
    const failing = consumer({
      name: "spans.failing",
      deliver: () => {
        throw new Error("provider down")
      },
    })
    const delivery = {
      stream: "tenant-1",
      scheduleId: "report",
      occurrence: 3,
      dueAt: SLOT,
      attempt: 2,
      lateByMs: 0,
      idempotencyKey: "schedule:tenant-1/report:3",
      payload: null,
    }
    // No tracer handed in: the one slotwise/node installed, over the registered SDK.
    expect(await dispatch(failing, delivery, { env: env as never })).toMatchObject({ status: "retry" })
    const [span] = sdk.exporter.getFinishedSpans()
    expect(span?.name).toBe("schedule.deliver")
    expect(span?.attributes).toEqual({
      "schedule.stream": "tenant-1",
      "schedule.id": "report",
      "schedule.occurrence": 3,
      "schedule.attempt": 2,
      "schedule.idempotency_key": "schedule:tenant-1/report:3",
      "schedule.outcome": "retry",
    })
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: "Error: provider down" })
    expect(span?.events.map((event) => event.attributes?.["exception.message"])).toEqual(["provider down"])
  })

  it("ends the span of a run the drain abandons with an error, once, though the run goes on", async () => {
    sdk = registerSdk((exporter) => new SimpleSpanProcessor({ exporter }))
    const started = gate()
    const release = gate()
    const stuck = job(async () => {
      started.open()
      await release.opened
    })
    const runtime = createRuntime({ jobs: [stuck], client })
    const beat = runtime.beat(SLOT.getTime())
    await started.opened
    expect(await runtime.drain(10)).toBe(1)
    const [span, ...more] = sdk.exporter.getFinishedSpans()
    expect(more).toEqual([])
    expect(span?.name).toBe("job.run")
    expect(span?.attributes).toMatchObject({ "job.name": stuck.name })
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining("abandoned") })
    expect(span?.events.map((event) => [event.name, event.attributes?.["exception.message"]])).toEqual([
      ["exception", expect.stringContaining("abandoned at shutdown")],
    ])
    // The run, let go, settles: its span was ended already and is not exported twice.
    release.open()
    expect(await beat).toEqual([expect.objectContaining({ job: stuck.name, status: "ran" })])
    expect(sdk.exporter.getFinishedSpans()).toHaveLength(1)
  })

  it("writes nothing and runs the job the same without an OpenTelemetry SDK", async () => {
    expect(
      (
        await Jobs.run(
          job(() => {}),
          SLOT,
          { env },
        )
      ).status,
    ).toBe("ran")
  })
})

describe("a container's stop, with the SDK's batch processor", () => {
  afterEach(() => {
    trace.disable()
    context.disable()
  })

  it("exports, before it answers, the span of a run that ended during the drain", async () => {
    // Batches leave only when flushed: an hour between scheduled exports, a batch far larger than one span.
    const { exporter, provider } = registerSdk(
      (exporter) => new BatchSpanProcessor({ exporter, scheduledDelayMillis: 3_600_000, maxExportBatchSize: 512 }),
    )
    const { url } = await migratedDatabase()
    const started = gate()
    const release = gate()
    const draining = job(async () => {
      started.open()
      await release.opened
    })
    // Start-up fires the beat, which runs the job.
    const container = await Container.start({
      app: { fetch: () => new Response("ok") },
      jobs: [draining],
      databaseUrl: url,
      port: 0,
      handleSignals: false,
    })
    await started.opened
    const stopped = container.stop()
    release.open()
    await stopped
    const [span] = named(exporter.getFinishedSpans(), "job.run")
    expect(span?.attributes).toMatchObject({ "job.name": draining.name, "job.outcome": "ran" })
    await provider.shutdown()
  })
})

describe("spans asked for that nothing records: the container's start-up warning", () => {
  afterEach(() => {
    trace.disable()
    context.disable()
  })
  const NOTHING_REGISTERED = {
    askedBy: expect.any(String),
    reason: expect.stringMatching(/^no OpenTelemetry tracer provider/),
  }

  it("names the variable that asks for spans when no tracer provider is registered", () => {
    expect(unrecordedSpans({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toEqual({
      ...NOTHING_REGISTERED,
      askedBy: "OTEL_EXPORTER_OTLP_ENDPOINT",
    })
    expect(unrecordedSpans({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toEqual({
      ...NOTHING_REGISTERED,
      askedBy: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    })
    expect(unrecordedSpans({ OTEL_TRACES_EXPORTER: "none, console" })).toEqual({
      ...NOTHING_REGISTERED,
      askedBy: "OTEL_TRACES_EXPORTER",
    })
  })

  it("says nothing when spans are not asked for", () => {
    for (const env of [
      {},
      { OTEL_TRACES_EXPORTER: "none" },
      { OTEL_EXPORTER_OTLP_ENDPOINT: "" },
      { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" },
      { OTEL_SERVICE_NAME: "billing" },
    ]) {
      expect(unrecordedSpans(env), JSON.stringify(env)).toBeUndefined()
    }
  })

  it("says nothing once the SDK is registered", () => {
    registerSdk((exporter) => new SimpleSpanProcessor({ exporter }))
    expect(unrecordedSpans({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBeUndefined()
  })
})
