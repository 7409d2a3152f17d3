import { describe, expect, it } from "vitest"
import type { EventDraft } from "../../src/infra/schedules/contract/schedule-events.ts"
import { EVENTS_PER_SCHEDULE } from "../../src/infra/schedules/contract/schedule-events.ts"
import { eventOf, lineOf } from "../../src/infra/schedules/stream/event-line.ts"
import { appended } from "../../src/infra/schedules/stream/row-events.ts"

const AT = Date.UTC(2100, 0, 4, 8, 0)
const fired = (data: Record<string, unknown>): EventDraft => ({ type: "schedule/fired", scheduleId: "s", data })

describe("an event as a line of its schedule's row", () => {
  it("reads back every event as it was written, a delivery's short and positional", () => {
    const events: EventDraft[] = [
      fired({ occurrence: 7, attempt: 2, lateByMs: 1_500, nextAt: AT + 3_600_000, state: "scheduled" }),
      fired({ occurrence: 1, attempt: 1, lateByMs: 0, nextAt: AT - 5, state: "completed" }),
      { type: "schedule/late", scheduleId: "s", data: { occurrence: 7, lateByMs: 1_500 } },
      {
        type: "schedule/failed",
        scheduleId: "s",
        data: { occurrence: 3, attempts: 1, retryAt: AT + 1_000, reason: "no\nluck" },
      },
      { type: "schedule/set", scheduleId: "s", data: { cause: "created", timing: { kind: "every", everyMs: 1_000 } } },
      // Another shape than the short form knows: written whole.
      fired({ occurrence: 1, attempt: 1, lateByMs: 0, nextAt: AT, state: "scheduled", extra: true }),
    ]
    events.forEach((event, i) => {
      const line = lineOf(100 + i, AT, event)
      expect(line).not.toContain("\n")
      expect(eventOf("s", line)).toEqual({ seq: 100 + i, at: AT, scheduleId: "s", type: event.type, data: event.data })
    })
    expect(lineOf(100, AT, events[0] as EventDraft)).toBe(`[100,${AT},"f",7,2,1500,3600000,0]`)
  })

  it("keeps a busy recurring schedule's newest events within the part of its row SQLite keeps in the page", () => {
    let lines = ""
    for (let n = 1; n <= 1_000; n++) {
      const at = AT + n * 1_000
      const event = fired({ occurrence: n, attempt: 1, lateByMs: 12, nextAt: at + 1_000, state: "scheduled" })
      lines = appended(lines, [lineOf(3_000_000 + n, at, event)])
    }
    expect(lines.split("\n")).toHaveLength(EVENTS_PER_SCHEDULE)
    // A WITHOUT ROWID row past about 1 KB spills to overflow pages: the events leave room for the rest of the row.
    expect(lines.length).toBeLessThan(600)
  })

  it("writes a set event short, each timing and the fields after the placed ones read back in their order", () => {
    const set = (data: Record<string, unknown>): EventDraft => ({ type: "schedule/set", scheduleId: "s", data })
    const placed = { cause: "created", consumer: "mail.send" }
    const events = [
      set({ ...placed, timing: { kind: "at", atMs: AT + 3_600_000 }, occurrence: 1, nextAt: AT + 3_600_000 }),
      set({ ...placed, timing: { kind: "after", afterMs: 90_000 }, occurrence: 1, nextAt: AT + 90_000 }),
      set({
        ...placed,
        timing: { kind: "every", everyMs: 1_000 },
        occurrence: 4,
        nextAt: AT - 5,
        ...{ startAt: AT, endAt: AT + 9_000, times: 3, jitterMs: 250 },
      }),
      set({
        cause: "updated",
        consumer: "mail.send",
        timing: { kind: "cron", cron: "0 9 * * 1", timezone: "Europe/Paris" },
        occurrence: 2,
        nextAt: AT + 86_400_000,
        state: "completed",
        delivered: 2,
      }),
      // Shapes the short form does not know: written whole.
      set({ cause: "resumed", from: "failed", occurrence: 1, nextAt: AT }),
      set({ ...placed, timing: { kind: "at", atMs: AT, extra: 1 }, occurrence: 1, nextAt: AT }),
      set({ ...placed, timing: { kind: "at", atMs: 1.5 }, occurrence: 1, nextAt: AT }),
      set({
        consumer: "mail.send",
        cause: "created",
        timing: { kind: "every", everyMs: 1_000 },
        occurrence: 1,
        nextAt: AT,
      }),
    ]
    const lines = events.map((event, i) => lineOf(100 + i, AT, event))
    lines.forEach((line, i) => {
      const event = events[i] as EventDraft
      const read = eventOf("s", line)
      expect(read).toEqual({ seq: 100 + i, at: AT, scheduleId: "s", type: "schedule/set", data: event.data })
      // Read back in the order written: a JSON answer shows the fields as before.
      expect(Object.keys(read.data)).toEqual(Object.keys(event.data))
      expect(JSON.parse(line)[2]).toBe(i < 4 ? "s" : "schedule/set")
    })
    // A pending one-shot's line: 163 bytes written whole, 67 in short.
    expect(lines[0]).toBe(`[100,${AT},"s","created","mail.send",["at",3600000],1,3600000]`)
    const whole = JSON.stringify([100, AT, "schedule/set", (events[0] as EventDraft).data])
    expect((lines[0] as string).length).toBeLessThan(whole.length / 1.8)
  })
})
