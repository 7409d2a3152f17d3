import type { HealthView } from "../../answers.ts"
import { api } from "./api.ts"
import { badge, byId, el, fill } from "./dom.ts"
import { elapsed, relative, span, when } from "./format.ts"
import { fail } from "./session.ts"

/** The top of the page: is the heartbeat alive, is a stream behind, is anything retrying. */
export async function loadHealth(): Promise<void> {
  try {
    const view = await api("health", {})
    fill(byId("health-heartbeat"), heartbeat(view))
    fill(byId("health-watchdog"), watchdog(view))
    fill(byId("health-retrying"), retrying(view))
    fill(byId("health-paused"), paused(view))
    fill(byId("health-verdict"), verdict(view))
    byId("health").dataset.ok = String(view.ok)
  } catch (error) {
    fail(error)
  }
}

export const clearHealth = () => {
  for (const id of ["health-heartbeat", "health-watchdog", "health-retrying", "health-paused", "health-verdict"])
    byId(id).replaceChildren()
}

function heartbeat({ heartbeat: beat }: HealthView) {
  const label = { alive: "alive", late: "late", ahead: "clock ahead", unknown: "no record yet" }[beat.status]
  const state = badge(label, { "data-testid": "heartbeat-status" }, `heartbeat-${beat.status}`)
  const ahead =
    beat.aheadSlot === null
      ? null
      : el(
          "div",
          { class: "error" },
          "the ",
          when(beat.aheadSlot),
          " slot was claimed: is the database's clock ahead, or this one behind?",
        )
  if (beat.lastFiredAt === null) {
    return [state, ahead, el("div", { class: "sub" }, "no exclusive job has claimed a slot yet")]
  }
  return [
    state,
    ahead,
    el("div", { "data-testid": "heartbeat-last" }, `last fired ${relative(beat.lastFiredAt)}`),
    el("div", { class: "sub" }, when(beat.lastFiredAt)),
    beat.missedSlot === null
      ? null
      : el("div", { class: "error" }, "missed the ", when(beat.missedSlot), " slot: is the Cron Trigger firing?"),
  ]
}

/** Ok, or why not, in the panel's title: the first thing read. */
function verdict(view: HealthView) {
  if (view.ok) return badge("ok", { "data-testid": "health-ok" }, "free")
  const why = [
    view.heartbeat.status === "late" || view.heartbeat.status === "ahead" ? `heartbeat ${view.heartbeat.status}` : "",
    view.watchdog.summary?.overdue ? `${view.watchdog.summary.overdue} streams behind` : "",
    view.capacity.ok ? "" : "over capacity",
    view.heldLeases.length ? `${view.heldLeases.length} leases held` : "",
    ...view.blind.map((blind) => `${blind.job} paused`),
  ].filter(Boolean)
  return badge(`not ok: ${why.join(", ") || "see below"}`, { "data-testid": "health-ok" }, "late")
}

/** What health cannot vouch for while the job it reads from is paused (the watchdog, the alerts job). */
const blindNote = ({ blind }: HealthView, job: string) =>
  blind
    .filter((entry) => entry.job === job)
    .map((entry) =>
      el(
        "div",
        { class: "error", "data-testid": "health-blind", "data-job": entry.job },
        `Cannot vouch for ${entry.cannot} (${entry.job} is paused: ${entry.pause.reason})`,
      ),
    )

function watchdog(view: HealthView) {
  const dog = view.watchdog
  const blind = blindNote(view, dog.job)
  if (blind.length) {
    const run = dog.lastRun
    return [
      badge("paused: not watching", { "data-testid": "watchdog-status" }, "late"),
      blind,
      run
        ? el(
            "div",
            { class: "sub" },
            `its last count, ${dog.summary?.overdue ?? "?"} overdue, is from ${relative(run.finishedAt)}`,
          )
        : null,
    ]
  }
  if (!dog.declared) {
    return [
      badge("not declared", {}, "unknown"),
      el("div", { class: "sub" }, `add ${dog.job}: lost alarms go unhealed`),
    ]
  }
  const summary = dog.summary
  const run = dog.lastRun
  if (!run) return [badge("no run yet", {}, "unknown")]
  const ran = el("div", { class: "sub" }, `last run ${relative(run.finishedAt)}, ${elapsed(run.ms)}`)
  if (run.outcome !== "ran" || !summary) {
    return [badge(run.outcome, { "data-testid": "watchdog-status" }), ran, el("div", { class: "error" }, run.error)]
  }
  const most = summary.mostOverdue
  return [
    badge(`${summary.overdue} overdue`, { "data-testid": "watchdog-status" }, summary.overdue ? "late" : "free"),
    most
      ? el(
          "div",
          { "data-testid": "watchdog-most-overdue" },
          "most behind: ",
          el("span", { class: "mono" }, most.stream),
          `, ${span(most.lagMs)}`,
        )
      : el("div", {}, "every stream's alarm is on time"),
    ran,
  ]
}

function retrying({ retrying: count }: HealthView) {
  const text = `${count.schedules}${count.complete ? "" : "+"} retrying`
  return [
    badge(text, { "data-testid": "retrying-count" }, count.schedules ? "retrying" : "free"),
    el(
      "div",
      { class: "sub" },
      `in ${count.streamsAsked} stream${count.streamsAsked === 1 ? "" : "s"} due within a minute`,
      count.unanswered ? `, ${count.unanswered} did not answer` : "",
    ),
  ]
}

/** What is paused, by whom and since when: a pause is a choice, but one someone should remember to undo. */
function paused(view: HealthView) {
  const pauses = view.paused
  if (pauses.length === 0) return [badge("none", { "data-testid": "paused-count" }, "free")]
  return [
    view.blind.filter((entry) => entry.job !== view.watchdog.job).flatMap((entry) => blindNote(view, entry.job)),
    badge(`${pauses.length} paused`, { "data-testid": "paused-count" }, "late"),
    ...pauses.map((pause) =>
      el(
        "div",
        { "data-testid": "paused-job", "data-job": pause.job },
        el("span", { class: "mono" }, pause.job),
        `: ${pause.reason}`,
        el("div", { class: "sub" }, `by ${pause.pausedBy ?? "the admin token"}, ${relative(pause.pausedAt)}`),
      ),
    ),
  ]
}
