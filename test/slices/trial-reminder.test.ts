import { env, exports } from "cloudflare:workers"
import { describe, expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { dispatch } from "../../src/infra/schedules/stream/dispatch.ts"
import { trialReminder } from "../../src/slices/billing/consumers.ts"
import { remindersOf, startTrial } from "../../src/slices/billing/queries.ts"
import { ADMIN_TOKEN } from "../support/admin.ts"
import { RETAINED, stubOf, tickAt } from "../support/streams.ts"

const berlinTime = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" }).format(ms)

describe("billing.trial-reminder", () => {
  it("is scheduled per user at 09:00 in the user's timezone and sends one reminder per occurrence", async () => {
    const res = await exports.default.fetch("http://x/billing/trials", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ account: "acme-berlin", dueAt: "2100-02-01T00:00:00Z", timezone: "Europe/Berlin" }),
    })
    expect(res.status).toBe(201)
    const { trial, reminder } = (await res.json()) as {
      trial: { id: number }
      reminder: { id: string; nextAt: number; stream: string }
    }
    expect(reminder.id).toBe(`trial-${trial.id}`)
    expect(reminder.stream).toBe("acme-berlin")
    expect(berlinTime(reminder.nextAt)).toBe("09:00")

    // Drive the user's stream by its clock: the reminder is due at nextAt.
    const rpc = stubOf("acme-berlin")
    expect((await tickAt(rpc, reminder.nextAt)).delivered).toBe(1)
    const sent = await remindersOf(database(env.DB), "acme-berlin")
    expect(sent.map((r) => r.idempotencyKey)).toEqual([
      expect.stringMatching(new RegExp(`^schedule:acme-berlin/trial-${trial.id}@[0-9a-f]{12}:1$`)),
    ])

    // Once the trial is closed, the next occurrence cancels the reminder and sends nothing.
    await env.DB.prepare("UPDATE trials SET closed_at = ? WHERE id = ?").bind(reminder.nextAt, trial.id).run()
    const next = (await rpc.get("acme-berlin", reminder.id)) as { value: { nextAt: number } }
    expect((await tickAt(rpc, next.value.nextAt)).delivered).toBe(0)
    expect(await remindersOf(database(env.DB), "acme-berlin")).toHaveLength(1)
    expect(((await rpc.get("acme-berlin", reminder.id)) as { value: { state: string } }).value.state).toBe("cancelled")

    // The cancelled reminder goes with the stream's retention window, and the empty stream leaves the directory.
    const listed = () => env.DB.prepare("SELECT name FROM schedule_streams WHERE name = 'acme-berlin'").first()
    expect(await listed()).not.toBeNull()
    expect(await tickAt(rpc, next.value.nextAt + RETAINED)).toMatchObject({ swept: 1, alarm: null })
    expect(((await rpc.get("acme-berlin", reminder.id)) as { ok: boolean }).ok).toBe(false)
    expect(await listed()).toBeNull()
  })

  it("records one reminder when an occurrence whose answer was lost is delivered again (ctx.once)", async () => {
    const trial = await startTrial(database(env.DB), "acme-redelivered", Date.UTC(2100, 1, 1))
    const delivery = {
      stream: "acme-redelivered",
      scheduleId: `trial-${trial.id}`,
      occurrence: 3,
      dueAt: new Date(Date.UTC(2100, 0, 5, 8)),
      attempt: 1,
      lateByMs: 0,
      idempotencyKey: `schedule:acme-redelivered/trial-${trial.id}:3`,
      payload: { trialId: trial.id, account: "acme-redelivered" },
    }
    // The engine's own delivery path, twice with one key: as a stream redelivers an answer it never settled.
    expect(await dispatch(trialReminder, delivery, { env })).toMatchObject({ status: "delivered" })
    expect(await dispatch(trialReminder, { ...delivery, attempt: 2 }, { env })).toMatchObject({ status: "delivered" })
    expect(await remindersOf(database(env.DB), "acme-redelivered")).toHaveLength(1)
    const key = await env.DB.prepare("SELECT key FROM once_keys WHERE key = ?").bind(delivery.idempotencyKey).first()
    expect(key).toEqual({ key: delivery.idempotencyKey })
  })

  it("refuses an unknown timezone before anything is written", async () => {
    const res = await exports.default.fetch("http://x/billing/trials", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ account: "acme-nowhere", dueAt: "2100-02-01T00:00:00Z", timezone: "Nowhere/City" }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ detail: expect.stringMatching(/^timezone: /) })
    const trials = await env.DB.prepare("SELECT count(*) AS n FROM trials WHERE account = ?")
      .bind("acme-nowhere")
      .first()
    expect(trials).toEqual({ n: 0 })
  })
})
