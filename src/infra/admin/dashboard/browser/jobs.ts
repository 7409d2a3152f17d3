import type { JobView, SlotEntry } from "../../answers.ts"
import { api } from "./api.ts"
import { badge, button, byId, el, emptyRow, fill } from "./dom.ts"
import { duration, elapsed, when } from "./format.ts"
import { jobCharts } from "./job-charts.ts"
import { act, fail } from "./session.ts"
import { todayCell } from "./today.ts"

/** The jobs as last fetched, by name, and the one whose runs are open. */
const shown = { jobs: new Map<string, JobView>(), open: null as string | null }

export async function loadJobs(): Promise<void> {
  try {
    const { jobs } = await api("jobs", {})
    shown.jobs = new Map(jobs.map((job) => [job.name, job]))
    byId("jobs-body").replaceChildren(...jobs.map(jobRow))
    if (jobs.length === 0) byId("jobs-body").append(emptyRow(8, "No jobs declared."))
    renderRuns()
    await loadToday(jobs)
  } catch (error) {
    fail(error)
  }
}

export function clearJobs(): void {
  shown.jobs.clear()
  shown.open = null
  byId("jobs-body").replaceChildren()
  byId("runs-body").replaceChildren()
  byId("job-charts").replaceChildren()
  byId("runs-panel").hidden = true
}

/** The jobs whose today is asked for at most, a few at a time (a history each). */
const TODAY_JOBS_MAX = 100
const TODAY_AT_ONCE = 4

/** Each exclusive job's today, filled into its row as it arrives. */
async function loadToday(jobs: readonly JobView[]): Promise<void> {
  const queue = jobs.filter((job) => job.exclusive).slice(0, TODAY_JOBS_MAX)
  const next = async (): Promise<void> => {
    const job = queue.shift()
    if (!job) return
    const history = await api("jobHistory", { name: job.name }, { query: { days: 1 } })
    const cell = byId("jobs-body").querySelector(`tr[data-job="${CSS.escape(job.name)}"] td.today`)
    if (cell && shown.jobs.get(job.name) === job) fill(cell, todayCell(job, history))
    return next()
  }
  await Promise.all(Array.from({ length: TODAY_AT_ONCE }, next)).catch(fail)
}

function jobRow(job: JobView): HTMLTableRowElement {
  const { lease } = job
  return el(
    "tr",
    { "data-testid": "job-row", "data-job": job.name, "aria-selected": String(job.name === shown.open) },
    el("td", { class: "name" }, el("div", { class: "mono job-name" }, job.name), pausedNote(job)),
    el("td", { class: "mono" }, job.cron),
    el("td", {}, job.exclusive ? "yes" : "no", el("div", { class: "sub" }, duration(job.timeoutMs))),
    el(
      "td",
      { "data-testid": "job-next" },
      job.paused
        ? [badge("paused", {}, "late"), el("div", { class: "sub" }, "no run until resumed")]
        : when(job.nextSlot),
    ),
    el(
      "td",
      {},
      badge(lease.status, { "data-testid": "lease-status" }),
      lease.holder ? el("div", { class: "sub mono" }, `holder ${lease.holder}`) : null,
      lease.leaseUntil !== null ? el("div", { class: "sub" }, "until ", when(lease.leaseUntil)) : null,
    ),
    el("td", { "data-testid": "job-last-run" }, lastRun(job)),
    el(
      "td",
      { class: "today" },
      job.exclusive ? el("span", { class: "sub" }, "…") : el("span", { class: "none" }, "not recorded"),
    ),
    el(
      "td",
      { class: "actions" },
      job.exclusive ? button("Runs", () => openRuns(job.name), { "data-testid": "job-runs" }) : null,
      button("Run now", () => runJob(job.name), { "data-testid": "job-run" }),
      job.paused
        ? button("Resume", () => resumeJob(job.name), { "data-testid": "job-resume" })
        : button("Pause", () => pauseJob(job.name), { class: "danger", "data-testid": "job-pause" }),
      lease.status === "free"
        ? null
        : button("Release lease", () => releaseLease(job.name), { class: "danger", "data-testid": "job-release" }),
    ),
  )
}

/** A paused job's badge: why, by whom and since when. */
function pausedNote({ paused }: JobView) {
  if (!paused) return null
  return el(
    "div",
    { "data-testid": "job-paused" },
    badge("paused", {}, "late"),
    el("div", { class: "sub", "data-testid": "job-paused-reason" }, paused.reason),
    el("div", { class: "sub" }, `by ${paused.pausedBy ?? "the admin token"} · since `, when(paused.pausedAt)),
  )
}

function lastRun(job: JobView) {
  if (!job.exclusive) return el("span", { class: "none" }, "not recorded (not exclusive)")
  const run = job.lastRun
  if (!run) return el("span", { class: "none" }, "no run recorded")
  const missed = job.slots.filter((slot) => slot.status === "missed").length
  return [
    badge(run.outcome, { "data-testid": "job-outcome" }),
    ` ${elapsed(run.ms)}`,
    el("div", { class: "sub" }, when(run.finishedAt)),
    run.error ? el("div", { class: "error", title: run.error }, run.error) : null,
    missed ? el("div", { class: "sub" }, `${missed} missed of its last ${job.slots.length} slots`) : null,
  ]
}

export function openRuns(name: string): void {
  shown.open = name
  for (const row of byId("jobs-body").querySelectorAll("tr")) {
    row.setAttribute("aria-selected", String(row.dataset.job === name))
  }
  renderRuns()
}

/** The open job's newest slots: each run's outcome, duration and error, and the slots no run took; its week charted. */
function renderRuns(): void {
  const job = shown.open === null ? undefined : shown.jobs.get(shown.open)
  byId("runs-panel").hidden = !job
  if (!job) return
  byId("runs-name").textContent = job.name
  byId("runs-body").replaceChildren(...job.slots.map(slotRow))
  if (job.slots.length === 0) byId("runs-body").append(emptyRow(6, "No run recorded yet."))
  void loadHistory(job.name)
}

async function loadHistory(name: string): Promise<void> {
  try {
    const history = await api("jobHistory", { name }, { query: { days: 7 } })
    if (shown.open === name) fill(byId("job-charts"), jobCharts(history))
  } catch (error) {
    fail(error)
  }
}

const slotRow = ({ slot, status, run }: SlotEntry) =>
  el(
    "tr",
    { "data-testid": "run-row", "data-status": status, "data-slot": String(slot) },
    el("td", {}, when(slot)),
    el("td", {}, badge(status, { "data-testid": "run-status" })),
    el("td", { class: "nowrap" }, run ? elapsed(run.ms) : ""),
    el("td", {}, run ? when(run.finishedAt) : ""),
    el("td", { class: "mono sub" }, run?.runId ?? ""),
    el(
      "td",
      { "data-testid": "run-error" },
      run?.error ? el("div", { class: "error wide" }, run.error) : el("span", { class: "sub" }, why(status)),
    ),
  )

function why(status: SlotEntry["status"]): string {
  if (status === "paused") return "the job was paused: the heartbeat skipped this slot"
  if (status === "missed") return "no run took this slot: the heartbeat did not fire, or a run still held the lease"
  if (status === "running") return "running now"
  if (status === "unrecorded") return "claimed, but no run was recorded: its release failed, or the run never finished"
  return ""
}

function runJob(name: string): void {
  void act(
    `Run ${name} now, for the current slot?`,
    () => api("runJob", { name }),
    (r) => `Ran ${r.job} for slot ${new Date(r.slot).toISOString()}: ${r.status} in ${r.ms} ms`,
    loadJobs,
  )
}

function pauseJob(name: string): void {
  const reason = window.prompt(`Pause ${name}? The heartbeat skips its slots until it is resumed. Why?`)?.trim()
  if (!reason) return
  void act(
    null,
    () => api("pauseJob", { name }, { body: { reason } }),
    (r) => (r.created ? `Paused ${name}: ${r.pause.reason}` : `${name} was already paused: ${r.pause.reason}`),
    loadJobs,
  )
}

function resumeJob(name: string): void {
  void act(
    `Resume ${name}? It runs again from its next slot.`,
    () => api("resumeJob", { name }),
    () => `Resumed ${name}: it runs from its next slot`,
    loadJobs,
  )
}

function releaseLease(name: string): void {
  void act(
    `Release the lease of ${name}? A run still going keeps going (its outcome is still recorded) and may overlap the next one.`,
    // The operator confirmed: a lease still within its run's timeout is released too.
    () => api("releaseLease", { name }, { query: { force: "true" } }),
    (r) => (r.released ? `Released the lease of ${name}` : `The lease of ${name} was already free`),
    loadJobs,
  )
}
