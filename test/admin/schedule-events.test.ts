import { beforeEach, describe, expect, it } from "vitest"
import { adminFetch, json } from "../support/admin.ts"
import { resetConsumers, script } from "../support/consumers.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, SECOND, T0, value } from "../support/streams.ts"

const MINUTE = 60 * SECOND
captureLogs()
beforeEach(resetConsumers)

/** A schedule's events as the dashboard's schedule page reads them: type and data, newest first. */
async function historyOf(stream: string, id: string) {
  const res = await adminFetch(`/admin/streams/${stream}/schedules/${id}`)
  expect(res.status).toBe(200)
  return (await json(res)).events.map((event: { type: string; data: unknown }) => [event.type, event.data])
}

describe("a schedule's history through admin", () => {
  it("shows each delivery fired, late and failed, from the events its row carries", async () => {
    const stream = openStream("admin-history")
    for (const id of ["on-time", "flaky", "doomed"])
      value(await stream.upsert({ id, consumer: "test.scripted", at: T0 }))
    value(await stream.upsert({ id: "late", consumer: "test.scripted", at: T0 + MINUTE }))
    script.set("flaky", ["retry"])
    script.set("doomed", ["terminal"])
    expect(await stream.tick(T0)).toMatchObject({ delivered: 1, retried: 1, failed: 1 })
    expect(await stream.tick(T0 + SECOND)).toMatchObject({ delivered: 1 })
    expect(await stream.tick(T0 + MINUTE + 5 * SECOND)).toMatchObject({ delivered: 1 })

    expect(await historyOf(stream.name, "on-time")).toEqual([
      ["schedule/fired", { occurrence: 1, attempt: 1, lateByMs: 0, nextAt: T0, state: "completed" }],
      ["schedule/set", expect.objectContaining({ cause: "created" })],
    ])
    expect(await historyOf(stream.name, "late")).toEqual([
      ["schedule/late", { occurrence: 1, lateByMs: 5 * SECOND }],
      ["schedule/fired", expect.objectContaining({ occurrence: 1, lateByMs: 5 * SECOND })],
      ["schedule/set", expect.objectContaining({ cause: "created" })],
    ])
    expect(await historyOf(stream.name, "flaky")).toEqual([
      ["schedule/fired", expect.objectContaining({ occurrence: 1, attempt: 2 })],
      ["schedule/failed", expect.objectContaining({ occurrence: 1, attempts: 1, retryAt: T0 + SECOND })],
      ["schedule/set", expect.objectContaining({ cause: "created" })],
    ])
    expect(await historyOf(stream.name, "doomed")).toEqual([
      ["schedule/failed", expect.objectContaining({ occurrence: 1, attempts: 1, terminal: true })],
      ["schedule/set", expect.objectContaining({ cause: "created" })],
    ])

    // The stream's feed holds the same events, newest first across its schedules.
    const feed = (await json(await adminFetch(`/admin/streams/${stream.name}/events?limit=500`))).events as Array<{
      seq: number
      scheduleId: string
      type: string
    }>
    expect(feed.map((event) => event.seq)).toEqual(feed.map((event) => event.seq).sort((a, b) => b - a))
    const ofEach = await Promise.all(
      ["on-time", "late", "flaky", "doomed"].map(async (id) =>
        (await historyOf(stream.name, id)).map(([type]: [string]) => `${id} ${type}`),
      ),
    )
    expect(feed.map((event) => `${event.scheduleId} ${event.type}`).sort()).toEqual(ofEach.flat().sort())
  })
})
