import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { describeError, logLine } from "../../src/infra/log.ts"
import { consumer } from "../../src/infra/schedules/contract/consumer.ts"
import { dispatch } from "../../src/infra/schedules/stream/dispatch.ts"
import { exceptionOf } from "../../src/infra/tracing/tracer.ts"
import { captureLogs } from "../support/logs.ts"
import { recordingTracer } from "../support/tracer.ts"

const logs = captureLogs()

/** Values a job or consumer may throw that String(), template literals or `instanceof` choke on. */
function oddValues(): unknown[] {
  const revocable = Proxy.revocable({}, {})
  revocable.revoke()
  const revokedError = Proxy.revocable(new Error("gone"), {})
  revokedError.revoke()
  const badMessage = new Error("x")
  Object.defineProperty(badMessage, "message", {
    get() {
      throw Object.create(null)
    },
  })
  const badName = new Error("y")
  Object.defineProperty(badName, "name", { value: Object.create(null) })
  const loop = new Error("a")
  const other = new Error("b", { cause: loop })
  loop.cause = other
  const badCause = new Error("c")
  Object.defineProperty(badCause, "cause", {
    get() {
      throw new Error("no cause for you")
    },
  })
  return [
    null,
    undefined,
    Symbol("thrown"),
    10n,
    Object.create(null),
    Object.assign(Object.create(null), { message: "no prototype" }),
    {
      toString() {
        throw new Error("toString throws")
      },
    },
    {
      [Symbol.toPrimitive]() {
        throw Object.create(null)
      },
    },
    revocable.proxy,
    revokedError.proxy,
    badMessage,
    badName,
    loop,
    badCause,
    { big: 1n },
  ]
}

const isException = (value: unknown) =>
  typeof value === "string" ||
  (typeof value === "object" &&
    value !== null &&
    typeof (value as { name: unknown }).name === "string" &&
    typeof (value as { message: unknown }).message === "string")

describe("describing a thrown value", () => {
  it.each(oddValues().map((value, i) => [i, value]))("never throws for odd value #%s, and gives text", (_, value) => {
    const text = describeError(value)
    expect(typeof text).toBe("string")
    expect(text.length).toBeGreaterThan(0)
    expect(isException(exceptionOf(value))).toBe(true)
    logLine("error", "odd", { error: text })
    expect(logs.of("odd")).toHaveLength(1)
  })

  it("never throws for anything at all, and what it gives is loggable text", () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withTypedArray: true,
      withSparseArray: true,
    })
    fc.assert(
      fc.property(anything, (value) => {
        const text = describeError(value)
        expect(typeof text).toBe("string")
        expect(isException(exceptionOf(value))).toBe(true)
        expect(() => JSON.stringify({ error: text })).not.toThrow()
      }),
    )
  })

  it("reads what it can: an Error's innermost cause, a string, an object without a prototype by its fields", () => {
    expect(describeError(new Error("outer", { cause: new TypeError("inner") }))).toBe("TypeError: inner")
    expect(describeError("plain")).toBe("plain")
    expect(describeError(Object.assign(Object.create(null), { code: 7 }))).toBe('object {"code":7}')
  })
})

describe("a consumer that throws an odd value", () => {
  it.each(oddValues().map((value, i) => [i, value]))(
    "odd value #%s is a retry with a reason, and its span records the exception",
    async (_, value) => {
      const odd = consumer({
        name: "test.odd-thrower",
        deliver: () => {
          throw value
        },
      })
      const delivery = {
        stream: "odd",
        scheduleId: "odd-1",
        occurrence: 1,
        dueAt: new Date(0),
        attempt: 1,
        lateByMs: 0,
        idempotencyKey: "schedule:odd/odd-1:1",
        payload: null,
      }
      const tracer = recordingTracer()
      const result = await dispatch(odd, delivery, { env: {} as Cloudflare.Env }, tracer)
      expect(result).toMatchObject({ status: "retry", reason: expect.any(String) })
      expect(tracer.spans[0]?.exceptions.every(isException)).toBe(true)
      expect(tracer.spans[0]?.status).toMatchObject({ code: "error", message: expect.any(String) })
    },
  )
})
