import type { JobHistory } from "../../answers.ts"
import { elapsed } from "./format.ts"
import { type MarkKind, slotLegend, slotMark } from "./slot-marks.ts"
import { chart, HOUR, hourName, svg, text, titled, WIDTH, whisker } from "./svg.ts"
import { todayNote } from "./today-counts.ts"

type Hour = JobHistory["hours"][number]
type Slot = JobHistory["today"][number]

/** What an hour's mark shows, worst first: a missed slot stands out over a failure, a failure over a pause or a skip. */
export type SlotKind = "missed" | "failed" | "paused" | "skipped" | "ran" | "due"

export const kindOf = (h: Hour): SlotKind =>
  h.missed > 0
    ? "missed"
    : h.failed + h.timedOut > 0
      ? "failed"
      : h.paused > 0
        ? "paused"
        : h.skipped > 0
          ? "skipped"
          : h.ran > 0
            ? "ran"
            : "due"

const slotKind = (status: Slot["status"]): MarkKind => (status === "timed-out" ? "failed" : status)

const describe = (h: Hour) =>
  `${hourName(h.hour)}: ${h.due} due · ran ${h.ran} · failed ${h.failed} · timed out ${h.timedOut} · skipped ${h.skipped} · missed ${h.missed} · paused ${h.paused}` +
  (h.medianMs === null ? "" : ` · median ${elapsed(h.medianMs)} · max ${elapsed(h.maxMs ?? 0)}`)

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16)

/** The exact quantile `q` of sorted values (nearest rank); the median of an even count is its middle two's mean. */
const quantile = (sorted: readonly number[], q: number) =>
  q === 0.5 && sorted.length % 2 === 0
    ? ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2
    : (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number)

/**
 * Today, one mark per slot the cron names (UTC): up to 96 slots in one row, more (an every-minute job) as a
 * row per hour and a column per minute. Past slots show their outcome, slots to come a short bar.
 */
function todayChart(history: JobHistory): HTMLElement {
  const { today } = history
  const day = history.now - (history.now % (24 * HOUR))
  const mark = (s: Slot, box: Parameters<typeof slotMark>[1], hatch: string) =>
    titled(
      `${hourName(s.slot)}: ${s.status}${s.ms === null ? "" : ` in ${elapsed(s.ms)}`}`,
      { "data-testid": "today-mark", "data-slot": s.slot, "data-status": s.status },
      slotMark(slotKind(s.status), box, hatch),
    )
  const legend = slotLegend({
    ran: "ran",
    failed: "failed or timed out",
    skipped: "skipped",
    missed: "missed",
    paused: "paused",
    claimed: "claimed, no record yet",
    due: "to come",
    unknown: "before the first run",
  })
  const title = `Today (${hourName(day).slice(0, 10)} UTC), one mark per slot of ${history.job}`
  const notes = [todayNote(today)]
  if (today.length <= 96) {
    const step = WIDTH / Math.max(today.length, 24)
    const labelEvery = Math.max(1, Math.ceil(today.length / 12))
    return chart(
      title,
      52,
      (hatch) => [
        ...today.map((s, i) => mark(s, { x: i * step, y: 10, w: Math.max(1, step - 2), h: 20 }, hatch)),
        ...today.flatMap((s, i) => (i % labelEvery === 0 ? [text(i * step, 48, clock(s.slot))] : [])),
      ],
      { legend, notes },
    )
  }
  const hours = [...new Set(today.map((s) => s.slot - (s.slot % HOUR)))]
  const row = 12
  const left = 36
  const step = (WIDTH - left) / 60
  return chart(
    title,
    hours.length * row + 16,
    (hatch) => [
      ...hours.map((hour, i) => text(0, 8 + i * row + row / 2, clock(hour))),
      ...[0, 15, 30, 45].map((minute) => text(left + minute * step, hours.length * row + 14, `:${minute}`)),
      ...today.map((s) => {
        const i = hours.indexOf(s.slot - (s.slot % HOUR))
        const minute = (s.slot % HOUR) / 60_000
        return mark(s, { x: left + minute * step, y: 4 + i * row, w: Math.max(1, step - 2), h: row - 4 }, hatch)
      }),
    ],
    { legend, notes },
  )
}

/** Today's chart, the strip of the job's hours and its durations over the same days; x is the hour. */
export function jobCharts(history: JobHistory): HTMLElement[] {
  const last = history.now - (history.now % HOUR)
  const windowStart = last - (history.days * 24 - 1) * HOUR
  // A job younger than the window: its charts start at its first run's hour, not days of nothing before it.
  const born = history.knownSince === null ? null : history.knownSince - (history.knownSince % HOUR)
  const young = born !== null && born > windowStart
  // At least a day is drawn, so a job first run this hour is not one hour stretched across the whole width.
  const first = young ? Math.max(windowStart, Math.min(born, last - 23 * HOUR)) : windowStart
  const hours = (last - first) / HOUR + 1
  const step = WIDTH / hours
  const x = (hour: number) => ((hour - first) / HOUR) * step
  const w = Math.max(1, step - 1)
  // The time axis: each midnight (UTC) labelled with its date, or over two days or less, every few hours.
  const every = hours <= 48 ? Math.max(1, Math.ceil(hours / 8)) * HOUR : 24 * HOUR
  const tick = Math.ceil(first / every) * every
  const ticks = Array.from({ length: Math.ceil((last + HOUR - tick) / every) }, (_, i) => tick + i * every)
  const tickName = (at: number) => (every < 24 * HOUR ? hourName(at).slice(5, 16) : hourName(at).slice(5, 10))
  const axis = (y: number) => ticks.map((at) => text(x(at), y, tickName(at)))
  const span = young
    ? `since its first run, ${hourName(born ?? first).slice(0, 16)} UTC (younger than ${history.days} days)`
    : `over ${history.days} days`
  const empty = (y: number) => [text(WIDTH / 2, y, "no runs yet", "middle")]
  const box = (hour: number) => ({ x: x(hour), y: 12, w, h: 20 })
  const strip = chart(
    `Slots of ${history.job}, by hour, ${span}`,
    56,
    (hatch) => [
      ...history.hours.map((h) => {
        const kind = kindOf(h)
        const failures = h.failed + h.timedOut
        // A missed slot's cross is drawn over the hour's failures, never instead of them.
        const marks =
          kind === "missed" && failures > 0
            ? [slotMark("failed", box(h.hour), hatch), slotMark("missed", box(h.hour), hatch)]
            : [slotMark(kind, box(h.hour), hatch)]
        const attributes = {
          "data-testid": "slot-mark",
          "data-hour": h.hour,
          "data-kind": kind,
          "data-failed": failures,
        }
        return titled(describe(h), attributes, ...marks)
      }),
      ...(history.hours.length ? axis(52) : empty(26)),
    ],
    {
      legend: slotLegend({
        ran: "ran",
        failed: "failed or timed out",
        skipped: "skipped",
        missed: "missed",
        paused: "paused",
      }),
      notes: [
        `${history.hours.reduce((n, h) => n + h.missed, 0)} slots missed and ` +
          `${history.hours.reduce((n, h) => n + h.failed + h.timedOut, 0)} failed ${span}`,
      ],
    },
  )
  const timed = history.hours.filter((h) => h.medianMs !== null)
  const top = Math.max(1, ...timed.map((h) => h.maxMs ?? 0))
  const y = (ms: number) => 76 - (ms / top) * 66
  const ran = history.today
    .flatMap((s) => (s.ms !== null && s.status !== "skipped" ? [s.ms] : []))
    .sort((a, b) => a - b)
  const durations = chart(
    `Duration of ${history.job}'s runs, median and max per hour, ${span}`,
    96,
    () => [
      ...(timed.length ? axis(94) : empty(44)),
      svg("polyline", {
        points: timed.map((h) => `${x(h.hour) + w / 2},${y(h.medianMs ?? 0)}`).join(" "),
        class: "line",
      }),
      ...timed.map((h) => {
        const cx = x(h.hour) + w / 2
        const attributes = {
          "data-testid": "duration-mark",
          "data-hour": h.hour,
          "data-median": h.medianMs ?? "",
          "data-max": h.maxMs ?? "",
        }
        return titled(describe(h), attributes, ...whisker(cx, y(h.medianMs ?? 0), y(h.maxMs ?? 0)))
      }),
      ...(timed.length ? [text(0, 8, `max ${elapsed(top)}`), text(0, 84, "0")] : []),
    ],
    {
      legend: [
        { name: "median of the hour", sample: () => svg("circle", { cx: 8, cy: 8, r: 3, class: "dot" }) },
        {
          name: "up to the hour's longest",
          sample: () => svg("line", { x1: 8, x2: 8, y1: 2, y2: 14, class: "whisker" }),
        },
      ],
      notes: [
        ran.length
          ? `Today: median ${elapsed(quantile(ran, 0.5))} · p99 ${elapsed(quantile(ran, 0.99))} · longest ${elapsed(ran.at(-1) as number)} over ${ran.length} runs`
          : "Today: no run recorded yet",
        `Longest ${span}: ${timed.length ? elapsed(top) : "no runs yet"}`,
      ],
    },
  )
  return [todayChart(history), strip, durations]
}
