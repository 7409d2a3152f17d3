import { env } from "cloudflare:workers"
import { beforeEach, describe, expect, it } from "vitest"
import { Schedules } from "../../src/infra/index.ts"
import type { StreamEventMap, StreamListeners } from "../../src/infra/schedules/stream/event-map.ts"
import { consumers, resetConsumers, script, seen } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, SECOND, T0, type TestStream, value } from "../support/streams.ts"

const HOUR = 3_600 * SECOND
const logs = captureLogs()

beforeEach(() => resetConsumers())

/**
 * The stream's object driven by an instance of a class built through the public call, with
 * `clock` and `on`, on the object's own storage (the object's own instance stays idle).
 */
function built(stream: TestStream, options: Omit<Parameters<typeof Schedules.durableObject>[0], "consumers">) {
  let instance: InstanceType<ReturnType<typeof Schedules.durableObject>> | undefined
  return <R>(call: (built: NonNullable<typeof instance>) => Promise<R>) =>
    stream.inside((_, state) => {
      instance ??= new (Schedules.durableObject({ consumers, ...options }))(state, env)
      return call(instance)
    })
}

describe("a stream's clock", () => {
  it("is the one given where the class is built: due times, claims and alarms read it", async () => {
    const stream = openStream("clock")
    const clock = { now: T0 }
    const through = built(stream, { clock: () => clock.now })
    const view = value(
      await through((s) => s.upsert(stream.name, { id: "x", consumer: "test.scripted", after: "1 hour" })),
    )
    expect(view.nextAt).toBe(T0 + HOUR)
    expect(await stream.alarm()).toBe(T0 + HOUR)
    clock.now = T0 + HOUR - 1
    expect(await through((s) => s.tick())).toMatchObject({ now: T0 + HOUR - 1, claimed: 0 })
    clock.now = T0 + HOUR
    expect(await through((s) => s.tick())).toMatchObject({ now: T0 + HOUR, claimed: 1, delivered: 1 })
    expect(seen.map((s) => s.delivery.dueAt.getTime())).toEqual([T0 + HOUR])
  })
})

describe("a stream's events", () => {
  it("tell a listener what the loop does: claims, settlements with their outcomes, the tick and the alarm", async () => {
    const stream = openStream("events")
    const heard: Array<{ name: keyof StreamEventMap; event: unknown }> = []
    const listen = <E extends keyof StreamEventMap>(name: E) => [
      name,
      (event: StreamEventMap[E]) => heard.push({ name, event }),
    ]
    const on = Object.fromEntries(
      (
        [
          "tick:claiming",
          "delivery:claimed",
          "settlement:committed",
          "tick:finished",
          "alarm:arming",
          "alarm:armed",
        ] as const
      ).map(listen),
    ) as StreamListeners
    const through = built(stream, { clock: () => T0, on })
    value(await through((s) => s.upsert(stream.name, { id: "ok", consumer: "test.scripted", at: T0 })))
    value(await through((s) => s.upsert(stream.name, { id: "flaky", consumer: "test.scripted", at: T0 })))
    script.set("flaky", ["retry"])
    heard.length = 0
    await through((s) => s.tick())

    const names = heard.map(({ name }) => name)
    expect(names[0]).toBe("tick:claiming")
    expect(names.filter((name) => name === "delivery:claimed")).toHaveLength(2)
    expect(names.at(-1)).toBe("tick:finished")
    const settled = heard
      .filter(({ name }) => name === "settlement:committed")
      .flatMap(({ event }) => (event as StreamEventMap["settlement:committed"]).settled)
    expect(settled.map(({ claim, result, stale }) => [claim.id, result.status, stale]).sort()).toEqual([
      ["flaky", "retry", false],
      ["ok", "delivered", false],
    ])
    expect(heard.find(({ name }) => name === "tick:finished")?.event).toMatchObject({
      stream: stream.name,
      report: { claimed: 2, delivered: 1, retried: 1 },
    })
    const arming = heard.find(({ name }) => name === "alarm:arming")?.event as StreamEventMap["alarm:arming"]
    expect(heard.find(({ name }) => name === "alarm:armed")?.event).toMatchObject({ arm: arming.arm, now: T0 })
  })

  it("never let a listener's throw into the loop: the tick delivers and settles, and the throw is logged once", async () => {
    const stream = openStream("throwing")
    const thrown = () => {
      throw new Error("listener broke")
    }
    const through = built(stream, {
      clock: () => T0,
      on: { "delivery:claimed": thrown, "settlement:committed": thrown, "alarm:armed": thrown },
    })
    for (const id of ["a", "b"])
      value(await through((s) => s.upsert(stream.name, { id, consumer: "test.scripted", at: T0 })))
    const report = await through((s) => s.tick())
    expect(report).toMatchObject({ claimed: 2, delivered: 2, retried: 0 })
    expect(report.error).toBeUndefined()
    const lines = logs.of("schedule stream listener threw")
    expect(lines.map((line) => line.event).sort()).toEqual(["alarm:armed", "delivery:claimed", "settlement:committed"])
    expect(lines[0]).toMatchObject({ level: "error", error: "Error: listener broke" })
  })

  it("never let a listener's rejection go unhandled: it is logged once", async () => {
    const stream = openStream("rejecting")
    const through = built(stream, {
      clock: () => T0,
      on: { "tick:finished": (async () => Promise.reject(new Error("async listener broke"))) as () => void },
    })
    value(await through((s) => s.upsert(stream.name, { id: "a", consumer: "test.scripted", at: T0 })))
    expect(await through((s) => s.tick())).toMatchObject({ delivered: 1 })
    await through((s) => s.tick())
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(logs.of("schedule stream listener threw")).toEqual([
      expect.objectContaining({ event: "tick:finished", error: "Error: async listener broke" }),
    ])
  })
})
