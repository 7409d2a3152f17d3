import { env } from "cloudflare:test"
import { beforeEach, describe, expect, it } from "vitest"
import { FAILED_PER_STREAM } from "../../../src/infra/alerts/alert-job.ts"
import { SWITCH_ID, tendSwitch } from "../../../src/infra/alerts/dead-mans-switch.ts"
import { INCIDENTS_READ, NOTICES_PER_RUN } from "../../../src/infra/alerts/incidents.ts"
import { type AlertNotice, Alerts } from "../../../src/infra/alerts/index.ts"
import { noticeId } from "../../../src/infra/alerts/notice.ts"
import { stream as streamClient } from "../../../src/infra/schedules/client/stream-client.ts"
import { DEFAULT_RETENTION_MS } from "../../../src/infra/schedules/contract/limits.ts"
import { recordNextEligible } from "../../../src/infra/schedules/directory/stream-directory.ts"
import { alertsHarness, bySubject } from "../../support/alerting.ts"
import { resetConsumers, script, seen } from "../../support/consumers.ts"
import { openStream, stubOf, tickAt, value } from "../../support/streams.ts"

// The alerts' fixes of issues 46 and 47 attacked from outside: what broke is an it.fails saying what is expected.

const MINUTE = 60_000
let names = 0
const { alerting, switchable } = alertsHarness({ year: 2035, prefix: "break", spanMs: 4_000 })

// One alerts job a database: a test's job would resolve the incidents of rules another test declared.
beforeEach(async () => {
  resetConsumers()
  script.clear()
  await env.DB.exec("DELETE FROM alert_incidents")
})

/** `count` incidents older than `t`, of a rule this release cannot name (a newer release's, after a rollback). */
async function olderIncidents(t: number, count = INCIDENTS_READ) {
  const insert = env.DB.prepare(
    "INSERT INTO alert_incidents (rule, subject, opened_at, state, sent, summary, resolved_at) VALUES (?, ?, ?, 'firing', 1, 'older', NULL)",
  )
  await env.DB.batch(Array.from({ length: count }, (_, i) => insert.bind("newer-kind.rule", `s-${i}`, t - i - 1)))
}

describe(`past ${INCIDENTS_READ} open incidents (claims 1, 2 and 4)`, () => {
  // DEFECT: incidentsOfFindings reads past the first 1,000 rows only the keys of this run's findings, so an incident
  // past them whose condition ended is read by nothing: it stays firing while the 1,000 older ones stay open (a
  // rule of a newer release after a rollback, or 10 watched streams of 100 failed schedules each). Expected: it
  // resolves the run after its condition ends, with one resolved notice.
  it("an incident opened past the first 1,000 resolves when its condition ends", async () => {
    const { job, run } = switchable("crowded")
    const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 1 })])
    await olderIncidents(t)
    await run(t, true)
    await at(t + MINUTE)
    expect(notices().map((notice) => notice.status)).toEqual(["firing"])
    await run(t + MINUTE, false)
    for (let minute = 2; minute < 6; minute++) await at(t + minute * MINUTE)
    expect(notices().map((notice) => notice.status)).toEqual(["firing", "resolved"])
  })

  // DEFECT: past the cap, the firing notices left for the next run are owed by rows past the first 1,000, which the
  // next run reads only if their finding still holds; when it is gone, nothing reads them and their firing notice
  // is never sent (nor is any of the incidents resolved). Expected, as claim 1 says: every incident gets one firing
  // then one resolved notice.
  it(`a firing notice left past the cap of ${NOTICES_PER_RUN} is sent once its condition ended`, async () => {
    const count = NOTICES_PER_RUN + 3
    const jobs = Array.from({ length: count }, () => switchable("capped-crowded"))
    const { start: t, at, notices } = alerting(jobs.map(({ job }) => Alerts.jobFailed(job, { slots: 1 })))
    await olderIncidents(t)
    for (const { run } of jobs) await run(t, true)
    await at(t + MINUTE)
    expect(notices()).toHaveLength(NOTICES_PER_RUN)
    for (const { run } of jobs) await run(t + MINUTE, false)
    for (let minute = 2; minute < 6; minute++) await at(t + minute * MINUTE)
    const firing = notices().filter((notice) => notice.status === "firing")
    expect(new Set(firing.map((notice) => notice.subject)).size).toBe(count)
  })

  it("an incident that keeps holding past the first 1,000 is fired once, and resolves once when read again", async () => {
    const { job, run } = switchable("crowded-then-cleared")
    const { start: t, at, notices } = alerting([Alerts.jobFailed(job, { slots: 1 })])
    await olderIncidents(t)
    await run(t, true)
    for (let minute = 1; minute < 4; minute++) {
      await run(t + minute * MINUTE, true)
      await at(t + minute * MINUTE)
    }
    // The older rows go (their release is back, say): the incident is among the first 1,000 again.
    await env.DB.exec("DELETE FROM alert_incidents WHERE rule = 'newer-kind.rule'")
    await run(t + 4 * MINUTE, false)
    for (let minute = 5; minute < 7; minute++) await at(t + minute * MINUTE)
    const [firing, resolved, ...more] = notices()
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.openedAt).toBe(firing?.openedAt)
    expect(resolved?.cause).toBe(firing?.summary)
  })
})

describe("a firing notice the consumer retries (claim 1: firing, then resolved, in that order)", () => {
  // DEFECT: an incident resolves once its firing notice is upserted into the alert stream, not once it is delivered.
  // A consumer that refuses the firing notice for a while (the webhook down for a minute) retries it on the stream's
  // backoff (1, 2, 4 … 60 s), while the resolved notice, due a minute later, is delivered on its first attempt: the
  // consumer is told "resolved" before "firing", and a chat channel shows the incident open after it resolved.
  // Expected: the firing notice is delivered before the resolved one.
  it("the resolved notice is delivered after the firing notice", async () => {
    const { job, run } = switchable("retried")
    const rule = Alerts.jobFailed(job, { slots: 1 })
    const { start: t, at } = alerting([rule])
    await run(t, true)
    const firingId = noticeId({
      kind: "job-failed",
      rule: rule.id,
      subject: job.name,
      openedAt: t + MINUTE + 1_000,
      status: "firing",
    })
    script.set(firingId, ["retry", "retry", "retry", "retry", "retry", "retry", "retry"])
    const minute = { spanMs: MINUTE - 2_000, tickMs: 1_000 }
    await at(t + MINUTE, minute)
    await run(t + MINUTE, false)
    for (let m = 2; m < 5; m++) await at(t + m * MINUTE, minute)
    // Each notice's delivery that succeeded is its last attempt (the script retries the ones before).
    const delivered = new Map<string, number>()
    seen.forEach(({ delivery }, index) => {
      const notice = delivery.payload as AlertNotice
      if (notice.subject === job.name) delivered.set(notice.status, index)
    })
    expect([...delivered.keys()].sort()).toEqual(["firing", "resolved"])
    expect(delivered.get("firing")).toBeLessThan(delivered.get("resolved") as number)
  })
})

describe(`a watched stream with more than ${FAILED_PER_STREAM} failed schedules (claim 4)`, () => {
  // DEFECT: a run lists a watched stream's failed schedules ordered by id, the first 100 only; a schedule failing
  // later with an id that sorts first pushes the 100th out of the listing, and its incident resolves, "failed no
  // more: resumed, cancelled, removed or swept", while it is still failed (it opens again, a second incident, once a
  // schedule ahead of it is resumed). Expected: an incident resolves only when its schedule is failed no more.
  it("an incident of a schedule still failed is not resolved", async () => {
    const watched = openStream("crowded-failures")
    const ids = Array.from({ length: FAILED_PER_STREAM }, (_, i) => `b-${String(i).padStart(3, "0")}`)
    const { start: t, at, notices } = alerting([Alerts.scheduleFailed({ stream: watched.name })])
    const fail = async (id: string, now: number) => {
      script.set(id, ["terminal"])
      await watched.upsert({ id, consumer: "test.scripted", at: now }, now)
    }
    for (const id of ids) await fail(id, t)
    for (let i = 0; i < 8; i++) await watched.tick(t + 1_000)
    expect(value(await watched.list({ state: "failed", limit: FAILED_PER_STREAM })).schedules).toHaveLength(ids.length)
    // 100 incidents open: 50 notices a run.
    await at(t + MINUTE)
    await at(t + 2 * MINUTE)
    const last = `${watched.name}/${ids.at(-1)}`
    expect(notices(last).map((notice) => notice.status)).toEqual(["firing"])
    // One more schedule fails, its id sorting first.
    await fail("a-000", t + 2 * MINUTE)
    for (let i = 0; i < 4; i++) await watched.tick(t + 2 * MINUTE + 1_000)
    for (let minute = 3; minute < 6; minute++) await at(t + minute * MINUTE)
    expect(value(await watched.get(ids.at(-1) as string)).state).toBe("failed")
    expect(notices(last).map((notice) => notice.status)).toEqual(["firing"])
  })
})

describe("the dead man's switch delivered while a run pushes it back (claims 3 and 4)", () => {
  // DEFECT: a run's now is its slot claim's time, so a run that starts just before the switch is due reads it
  // scheduled and not yet due; if the stream's alarm delivers it before the run's upsert lands (the run is late:
  // exactly when the heartbeat is), the upsert restarts the delivered one-shot switch. The "heartbeat is late"
  // notice was delivered, and the switch is armed again as if it never fired: no run ever resolves it. Expected:
  // a firing notice delivered is resolved once (the push back cannot restart a delivered switch, or the run
  // notices it did).
  it.fails("a switch delivered between a run's read and its push back is still resolved", async () => {
    const afterMs = 3 * MINUTE
    const { stream, start: t, at, notices, alarmAt } = alerting([Alerts.heartbeatLate({ after: "3 minutes" })])
    await at(t)
    const armedFor = t + 1_000 + afterMs
    // The next run claimed its slot just before the switch was due, and the stream's alarm fires while it runs.
    const client = streamClient(env.SCHEDULES, stream)
    let delivered = false
    const racing = {
      ...client,
      get: async (id: string) => {
        const view = await client.get(id)
        if (id === SWITCH_ID && !delivered) {
          delivered = true
          await alarmAt(armedFor)
        }
        return view
      },
    }
    const slot = t + 3 * MINUTE
    await tendSwitch(racing, "test.scripted", {
      afterMs,
      slot,
      now: armedFor - 500,
      armedFor,
      pauses: async () => [],
    })
    expect(notices().map((notice) => notice.status)).toEqual(["firing"])
    // The heartbeat runs every minute again.
    for (let minute = 4; minute < 9; minute++) await at(t + minute * MINUTE)
    const [firing, resolved, ...more] = notices()
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.cause).toBe(firing?.summary)
  })
})

describe("a run that pushed the switch back and died before its D1 batch (claim 3, swept)", () => {
  // DEFECT: the switch is pushed back in the alert stream (tendSwitch) before the run's D1 batch records the time it
  // is armed for; a run that dies in between (its 30 s timeout, an isolate restart, a D1 error) leaves the record a
  // minute or more behind the switch. When the heartbeat then stops for longer than the stream keeps the delivered
  // switch, the resolved notice is built from the stale record: its openedAt and cause name a time the switch was
  // never delivered for. Expected: the resolved notice's cause is the summary the firing notice was delivered with,
  // and its openedAt the firing notice's.
  it.fails("the resolved notice still names the firing notice it ends", async () => {
    const afterMs = 3 * MINUTE
    const { stream, start: t, at, notices, alarmAt } = alerting([Alerts.heartbeatLate({ after: "3 minutes" })])
    await at(t)
    // The next run pushes the switch back, then dies: its D1 batch (the switch's record) is never written.
    const now = t + MINUTE + 1_000
    await tendSwitch(streamClient(env.SCHEDULES, stream), "test.scripted", {
      afterMs,
      slot: t + MINUTE,
      now,
      armedFor: t + 1_000 + afterMs,
      pauses: async () => [],
    })
    // The heartbeat stops: the switch fires, and eight days on the stream sweeps it.
    await alarmAt(now + afterMs)
    await alarmAt(t + DEFAULT_RETENTION_MS + 24 * 60 * MINUTE)
    await at(t + 8 * 24 * 60 * MINUTE)
    const [firing, resolved, ...more] = notices()
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.openedAt).toBe(firing?.openedAt)
    expect(resolved?.cause).toBe(firing?.summary)
  })
})

describe("a schedule-failed rule that watches the alert stream itself (claim 4)", () => {
  // Found from outside: nothing refused it, and once the consumer refused notices each failed notice opened an
  // incident whose notice failed in turn, a new one every minute from one real one. Alerts.job now refuses it.
  it("is refused when the module loads, naming the rule and its field", () => {
    const stream = `break-self-${++names}`
    const rule = Alerts.scheduleFailed({ stream })
    expect(() => Alerts.job({ consumer: "test.scripted", stream, rules: [rule] })).toThrow(
      expect.objectContaining({
        name: "AlertDefinitionError",
        field: "stream",
        message: expect.stringMatching(/alert stream itself/),
      }),
    )
    expect(() => Alerts.job({ consumer: "test.scripted", stream: `${stream}-other`, rules: [rule] })).not.toThrow()
  })
})

describe("two incidents opened in one run whose rule and subject hash alike (claim 1)", () => {
  // DEFECT: a notice's schedule id is its kind, a 32-bit FNV-1a of rule and subject, its opening and its state. Two
  // incidents opened in the same run whose keys collide (found in a few seconds: the schedule ids below; about one
  // chance in 1,500 for 2,400 subjects opened at once, and a tenant naming its schedules may aim for it) get the same
  // id: the second's upsert is skipped as "already delivered" and it is marked sent, so its firing notice (and later
  // its resolved one) is never delivered. Expected: each incident's notices are delivered, whatever its subject.
  it("each gets its own firing notice", async () => {
    const name = "break-collide"
    const ids = ["tenant-31651", "tenant-136600"]
    const { start: t, at, notices } = alerting([Alerts.scheduleFailed({ stream: name })])
    const watched = streamClient(env.SCHEDULES, name)
    await stubOf(name).setNow(t)
    for (const id of ids) {
      script.set(id, ["terminal"])
      await watched.upsert({ id, consumer: "test.scripted", at: t })
    }
    for (let i = 0; i < 4; i++) await tickAt(stubOf(name), t + 1_000)
    for (const id of ids) expect((await watched.get(id))?.state).toBe("failed")
    for (let minute = 1; minute < 4; minute++) await at(t + minute * MINUTE)
    const subjects = notices()
      .filter((notice) => notice.status === "firing")
      .map((notice) => notice.subject)
    expect(subjects.sort()).toEqual(ids.map((id) => `${name}/${id}`).sort())
  })
})

describe("what held: a resolved notice's cause, and the cap with a removed rule (claims 1 and 3)", () => {
  it("job-missed, schedule-failed and stream-overdue: the resolved notice's cause and opening are its firing notice's", async () => {
    const { job, run } = switchable("missing")
    const watched = openStream("held-failures")
    const {
      start: t,
      at,
      notices,
    } = alerting([
      Alerts.jobMissed(job, { slots: 3 }),
      Alerts.scheduleFailed({ stream: watched.name }),
      Alerts.streamOverdue({ after: "10 minutes" }),
    ])
    const late = `held-late-${t}`
    await run(t, false)
    await watched.upsert({ id: "hook", consumer: "test.scripted", every: "1 minute" }, t - MINUTE)
    script.set("hook", ["terminal"])
    await watched.tick(t)
    await recordNextEligible(env.DB, late, t - 60 * MINUTE, t)
    for (let minute = 1; minute < 6; minute++) await at(t + minute * MINUTE)
    // Every condition ends, each its own way.
    await run(t + 6 * MINUTE, false)
    await watched.resume("hook", t + 6 * MINUTE)
    await recordNextEligible(env.DB, late, t + 60 * MINUTE, t + 6 * MINUTE)
    for (let minute = 6; minute < 9; minute++) await at(t + minute * MINUTE)
    const of = bySubject(notices())
    for (const subject of [job.name, `${watched.name}/hook`, late]) {
      const [firing, resolved, ...more] = of.get(subject) ?? []
      expect([firing?.status, resolved?.status, more.length], subject).toEqual(["firing", "resolved", 0])
      expect(resolved?.openedAt, subject).toBe(firing?.openedAt)
      expect(resolved?.cause, subject).toBe(firing?.summary)
      expect(resolved?.summary, subject).not.toBe(firing?.summary)
    }
  })

  it(`past the cap of ${NOTICES_PER_RUN}, incidents of rules removed before their firing notice went out fire, then resolve saying so`, async () => {
    const count = NOTICES_PER_RUN + 4
    const jobs = Array.from({ length: count }, () => switchable("capped-removed"))
    const { start: t, at, notices } = alerting(jobs.map(({ job }) => Alerts.jobFailed(job, { slots: 1 })))
    for (const { run } of jobs) await run(t, true)
    await at(t + MINUTE)
    expect(notices()).toHaveLength(NOTICES_PER_RUN)
    // Every rule removed from the code (the jobs still failing): another rule stays.
    const others = [Alerts.streamOverdue({ after: "1 day" })]
    for (let minute = 2; minute < 6; minute++) await at(t + minute * MINUTE, { withRules: others })
    const of = bySubject(notices())
    for (const { job } of jobs) {
      const [firing, resolved, ...more] = of.get(job.name) ?? []
      expect([firing?.status, resolved?.status, more.length], job.name).toEqual(["firing", "resolved", 0])
      expect(resolved?.openedAt).toBe(firing?.openedAt)
      expect(resolved?.cause).toBe(firing?.summary)
      expect(resolved?.summary).toMatch(/removed from the code/)
    }
  })
})

describe("what held: the dead man's switch (claims 3 and 4)", () => {
  it("fired and swept in an alert stream since renamed: resolved once, its cause the delivered summary, and armed in the new one", async () => {
    const late = [Alerts.heartbeatLate({ after: "3 minutes" })]
    const old = alerting(late)
    const renamed = alerting(late)
    const t = old.start
    await old.at(t)
    await old.alarmAt(t + 5 * MINUTE)
    await old.alarmAt(t + DEFAULT_RETENTION_MS + 24 * 60 * MINUTE)
    // Back eight days on, with the alert stream renamed.
    const back = t + 8 * 24 * 60 * MINUTE
    for (let minute = 0; minute < 3; minute++) await renamed.at(back + minute * MINUTE)
    await old.alarmAt(back + 3 * MINUTE)
    const [firing, resolved, ...more] = [...old.notices(), ...renamed.notices()]
    expect([firing?.status, resolved?.status, more.length]).toEqual(["firing", "resolved", 0])
    expect(resolved?.openedAt).toBe(firing?.openedAt)
    expect(resolved?.cause).toBe(firing?.summary)
    const armed = await streamClient(env.SCHEDULES, renamed.stream).get(SWITCH_ID)
    expect(armed).toMatchObject({ state: "scheduled", nextAt: back + 2 * MINUTE + 1_000 + 3 * MINUTE })
    // Silent again: it fires in the new stream, once.
    await renamed.alarmAt(back + 10 * MINUTE)
    expect(renamed.notices().map((notice) => notice.status)).toEqual(["firing"])
  })
})
