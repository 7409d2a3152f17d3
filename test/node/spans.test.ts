import type { Client } from "@libsql/client"
import { type Tracer as OtelTracer, type Span, SpanStatusCode, trace } from "@opentelemetry/api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
// The entry, for what importing it does: it makes OpenTelemetry the tracer of job runs.
import "../../src/infra/node/index.ts"
import { createRuntime } from "../../src/infra/node/runtime.ts"
import { Jobs } from "../../src/infra/portable.ts"
import { consumer } from "../../src/infra/schedules/client/consumer.ts"
import { dispatch } from "../../src/infra/schedules/stream/dispatch.ts"
import { recordingTracer } from "../support/tracer.ts"
import { migratedDatabase } from "./engines.ts"

const SLOT = new Date(Date.UTC(2026, 10, 30, 4, 12))

/** An OpenTelemetry tracer provider that keeps what slotwise writes, in place of an SDK. */
function fakeProvider() {
  const spans: Array<{
    name: string
    attributes: Record<string, unknown>
    status?: unknown
    exceptions: unknown[]
    ended: boolean
  }> = []
  const tracer = {
    startActiveSpan(name: string, work: (span: Span) => unknown) {
      const record = {
        name,
        attributes: {} as Record<string, unknown>,
        exceptions: [] as unknown[],
        ended: false,
        status: undefined as unknown,
      }
      spans.push(record)
      const span = {
        setAttribute(key: string, value: unknown) {
          record.attributes[key] = value
          return span
        },
        recordException(exception: unknown) {
          record.exceptions.push(exception)
        },
        setStatus(status: unknown) {
          record.status = status
          return span
        },
        end() {
          record.ended = true
        },
      }
      return work(span as unknown as Span)
    },
  } as unknown as OtelTracer
  return { spans, provider: { getTracer: () => tracer } }
}

describe("spans on the container profile", () => {
  let client: Client
  let env: ReturnType<typeof createRuntime>["env"]
  beforeAll(async () => {
    client = (await migratedDatabase()).client
    env = createRuntime({ jobs: [], client }).env
  })
  afterAll(() => client.close())

  it("writes Jobs.run's span through @opentelemetry/api, which slotwise/node installs", async () => {
    const { spans, provider } = fakeProvider()
    trace.setGlobalTracerProvider(provider as never)
    try {
      const failing = Jobs.make({
        name: "spans.node-failing",
        cron: "* * * * *",
        exclusive: true,
        timeout: "5 seconds",
        run: () => {
          throw new RangeError("quota exceeded")
        },
      })
      expect((await Jobs.run(failing, SLOT, { env, runId: "run-1" })).status).toBe("failed")
    } finally {
      trace.disable()
    }
    expect(spans).toEqual([
      {
        name: "job.run",
        attributes: {
          "job.name": "spans.node-failing",
          "job.slot": "2026-11-30T04:12:00.000Z",
          "job.run_id": "run-1",
          "job.outcome": "failed",
        },
        exceptions: [expect.objectContaining({ name: "RangeError", message: "quota exceeded" })],
        status: { code: SpanStatusCode.ERROR, message: "failed" },
        ended: true,
      },
    ])
  })

  it("writes nothing and runs the job the same without an OpenTelemetry SDK", async () => {
    const ran = Jobs.make({ name: "spans.node-ok", cron: "* * * * *", exclusive: true, timeout: 1_000, run: () => {} })
    expect((await Jobs.run(ran, SLOT, { env })).status).toBe("ran")
  })

  it("wraps a delivery in a schedule.deliver span with its attributes, outcome and a thrown error", async () => {
    const tracer = recordingTracer()
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
    const result = await dispatch(failing, delivery, { env: env as never }, tracer)
    expect(result).toMatchObject({ status: "retry", reason: "Error: provider down" })
    expect(tracer.spans).toEqual([
      {
        name: "schedule.deliver",
        attributes: {
          "schedule.stream": "tenant-1",
          "schedule.id": "report",
          "schedule.occurrence": 3,
          "schedule.attempt": 2,
          "schedule.idempotency_key": "schedule:tenant-1/report:3",
          "schedule.outcome": "retry",
        },
        exceptions: [expect.objectContaining({ message: "provider down" })],
        status: { code: "error", message: "Error: provider down" },
        ended: true,
      },
    ])
  })
})
