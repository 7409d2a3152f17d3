import { beforeEach, describe, expect, it } from "vitest"
import { normalised } from "../../src/infra/schedules/stream/settlement.ts"
import { resetConsumers, script, seen } from "../support/consumers.ts"
import { eventsOf, openStream, SECOND, storedRow, T0, value } from "../support/streams.ts"

const DUE = T0 + 60 * SECOND
const GOOD = ["good-a", "good-b", "good-c"]

describe("a malformed outcome", () => {
  beforeEach(() => resetConsumers())

  it("settles as a retry of its own row, and the good answers settled with it complete once", async () => {
    const stream = openStream("malformed")
    script.set("bad", ["malformed"])
    for (const id of ["bad", ...GOOD]) value(await stream.upsert({ id, consumer: "test.scripted", at: DUE }))

    // The four answer in one turn: one settlement group, one transaction.
    const report = await stream.tick(DUE)
    expect(report).toMatchObject({ claimed: 4, delivered: 3, retried: 1, failed: 0, stale: 0 })
    expect(report.error).toBeUndefined()

    for (const id of GOOD) {
      expect(await storedRow(stream, id)).toMatchObject({ state: "completed", claim_token: null, claim_until: null })
      expect((await eventsOf(stream, id)).map((e) => e.type)).toEqual(["schedule/fired", "schedule/set"])
    }
    const bad = await storedRow(stream, "bad")
    expect(bad).toMatchObject({ state: "scheduled", attempts: 1, claim_token: null, retry_at: DUE + SECOND })
    expect(bad.last_error).toMatch(/^malformed outcome: .*reason.*bigint/)
    const [failed] = await eventsOf(stream, "bad")
    expect(failed).toMatchObject({ type: "schedule/failed", data: { attempts: 1, retryAt: DUE + SECOND } })

    // The retry reaches the bad row alone: the good ones were delivered once.
    expect(await stream.tick(DUE + 2 * SECOND)).toMatchObject({ claimed: 1, delivered: 1 })
    const delivered = seen.map((s) => s.delivery.scheduleId).sort()
    expect(delivered).toEqual(["bad", "bad", ...GOOD])
  })
})

describe("normalised", () => {
  const throwing = Object.defineProperty({ status: "retry" }, "reason", {
    get() {
      throw new Error("no reason")
    },
  })
  const revoked = Proxy.revocable({}, {})
  revoked.revoke()

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 7],
    ["a string", "retry"],
    ["an unknown status", { status: "later", reason: "x" }],
    ["no status", { reason: "x" }],
    ["a BigInt reason", { status: "retry", reason: 42n }],
    ["a symbol reason on terminal", { status: "terminal", reason: Symbol("why") }],
    ["a missing reason", { status: "retry" }],
    ["a lateness that is not a number", { status: "delivered", lateByMs: Number.NaN }],
    ["a reason getter that throws", throwing],
    ["a revoked proxy", revoked.proxy],
  ])("turns %s into a retry that says it was malformed", (_, value) => {
    const result = normalised(value)
    expect(result.status).toBe("retry")
    expect(result.status !== "delivered" && result.reason).toMatch(/^malformed outcome: /)
  })

  it("keeps a well-formed result as it is, in a copy", () => {
    const given = { status: "terminal" as const, reason: "gone" }
    expect(normalised(given)).toEqual(given)
    expect(normalised(given)).not.toBe(given)
    expect(normalised({ status: "delivered", lateByMs: 5 })).toEqual({ status: "delivered", lateByMs: 5 })
  })
})
