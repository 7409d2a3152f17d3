import { env } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { consumer } from "../../src/infra/schedules/contract/consumer.ts"
import type { Delivery, DeliveryContext } from "../../src/infra/schedules/index.ts"
import { DeliveryTimeoutError, dispatch } from "../../src/infra/schedules/stream/dispatch.ts"

const delivery: Delivery = {
  stream: "context",
  scheduleId: "s",
  occurrence: 1,
  dueAt: new Date(0),
  attempt: 1,
  lateByMs: 0,
  idempotencyKey: "schedule:context/s:1",
  payload: null,
}

describe("a delivery's context", () => {
  it("hands a signal read only after the deadline already aborted, with the timeout as its reason", async () => {
    let kept: DeliveryContext | undefined
    const hangs = consumer({
      name: "context.hangs",
      timeout: 100,
      // Keeps the context and never reads the signal while it runs.
      deliver: (_delivery, ctx) => {
        kept = ctx
        return new Promise<void>(() => {})
      },
    })
    expect(await dispatch(hangs, delivery, { env })).toMatchObject({ status: "retry" })
    const signal = (kept as DeliveryContext).signal
    expect(signal.aborted).toBe(true)
    expect(signal.reason).toBeInstanceOf(DeliveryTimeoutError)
  })

  it("keeps its signal, logger and once through a spread and a destructuring", async () => {
    let copied: DeliveryContext | undefined
    let signal: AbortSignal | undefined
    const spreads = consumer({
      name: "context.spreads",
      timeout: "1 second",
      deliver: (_delivery, ctx) => {
        copied = { ...ctx }
        ;({ signal } = ctx)
      },
    })
    expect(await dispatch(spreads, delivery, { env })).toMatchObject({ status: "delivered" })
    expect(copied?.signal).toBe(signal)
    expect(copied?.signal.aborted).toBe(false)
    expect(typeof copied?.log.info).toBe("function")
    expect(typeof copied?.once).toBe("function")
    expect(copied?.env).toBe(env)
  })
})

describe("a consumer's answer", () => {
  const answering = (answer: () => unknown) => consumer({ name: "context.answers", timeout: 100, deliver: answer })

  it("is taken as it is given, synchronously or as a promise, and a thrown error or a throwing then is a retry", async () => {
    const outcomes = await Promise.all(
      [
        () => undefined,
        () => Promise.resolve(undefined),
        // biome-ignore lint/suspicious/noThenProperty: a thenable that is no Promise, as a consumer may return
        () => ({ then: (ok: (value: unknown) => void) => ok(undefined) }),
        () => {
          throw new Error("sync throw")
        },
        () => Promise.reject(new Error("async throw")),
        () => ({
          // biome-ignore lint/suspicious/noThenProperty: a thenable whose then cannot be read
          get then() {
            throw new Error("then getter throws")
          },
        }),
      ].map((answer) => dispatch(answering(answer), delivery, { env })),
    )
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "delivered",
      "delivered",
      "delivered",
      "retry",
      "retry",
      "retry",
    ])
    expect(outcomes[5]).toMatchObject({ reason: expect.stringMatching(/then getter throws/) })
  })
})
