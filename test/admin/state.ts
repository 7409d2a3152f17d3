import { listDurableObjectIds, runInDurableObject } from "cloudflare:test"
import { env } from "cloudflare:workers"
import { expect } from "vitest"
import type { ScheduleView } from "../../src/infra/schedules/index.ts"
import { adminFetch, json } from "../support/admin.ts"

/** A stream's Durable Object; only for a stream known to exist, since waking it creates its storage. */
export const streamStub = (name: string) => env.SCHEDULES.get(env.SCHEDULES.idFromName(name))

/** The id string of the object that would hold `name`, as listDurableObjectIds reports ids. */
export const objectIdOf = (name: string) => env.SCHEDULES.idFromName(name).toString()

/** Every ScheduleStream object that has storage. */
export const objectIds = async () => (await listDurableObjectIds(env.SCHEDULES)).map((id) => id.toString()).sort()

const rows = async (query: string) => (await env.DB.prepare(query).all()).results

/** A stream's whole SQLite (rows with their events, claim records, retention journal, removals, meta) and its alarm. */
export const streamStorage = (name: string) =>
  runInDurableObject(streamStub(name), async (_instance, state) => ({
    schedules: state.storage.sql.exec("SELECT * FROM schedules ORDER BY id").toArray(),
    claims: state.storage.sql.exec("SELECT * FROM claims ORDER BY slot").toArray(),
    finished: state.storage.sql.exec("SELECT * FROM finished ORDER BY at, tag").toArray(),
    removed: state.storage.sql.exec("SELECT * FROM removed ORDER BY seq").toArray(),
    meta: state.storage.sql.exec("SELECT * FROM meta ORDER BY key").toArray(),
    alarm: await state.storage.getAlarm(),
  }))

/** What an admin call could write: the D1 leases and directory, which objects exist, and these streams' storage. */
export async function snapshot(streams: readonly string[] = []) {
  return {
    leases: await rows("SELECT * FROM jobs_leases ORDER BY name"),
    directory: await rows("SELECT * FROM schedule_streams ORDER BY name"),
    objects: await objectIds(),
    streams: Object.fromEntries(await Promise.all(streams.map(async (name) => [name, await streamStorage(name)]))),
  }
}

/** Asserts an RFC 9457 problem of `status` (naming `field` when given) and answers its body. */
export async function expectProblem(res: Response, status: number, field?: string) {
  const text = await res.text()
  expect(res.status, text).toBe(status)
  expect(res.headers.get("content-type")).toBe("application/problem+json")
  const body = JSON.parse(text) as Record<string, unknown>
  expect(body).toMatchObject({
    type: expect.stringMatching(/^https:\/\/\S+$/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  })
  expect((body.detail as string).length).toBeGreaterThan(0)
  if (field !== undefined) expect(body.field, body.detail as string).toBe(field)
  return body
}

/** A schedule body every admin test can upsert: a daily schedule, never due while a test runs. */
export const DAILY = { consumer: "test.scripted", every: "1 day" }

/** Creates or replaces a schedule through the admin API, and answers its view. */
export async function putSchedule(stream: string, id: string, body: Record<string, unknown> = DAILY) {
  const res = await adminFetch(`/admin/streams/${stream}/schedules/${id}`, {
    method: "PUT",
    body: JSON.stringify(body),
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await json(res)).schedule as ScheduleView
}

const MINUTE = 60_000

/**
 * Waits for the next minute when this one ends within 5 s, so that steps meant to share the
 * current minute's slot (a release then a run-now, two run-nows) do not straddle two slots.
 */
export async function awayFromMinuteEdge() {
  const left = MINUTE - (Date.now() % MINUTE)
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 20))
}
