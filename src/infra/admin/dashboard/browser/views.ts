/** Browser code: the jobs, streams, schedules and events views. */
export const VIEWS = `
// Jobs and their leases.
async function loadJobs() {
  try {
    const data = await api("GET", "/jobs")
    $("jobs-body").replaceChildren(...data.jobs.map(jobRow))
    if (data.jobs.length === 0) $("jobs-body").append(emptyRow(8, "No jobs declared."))
  } catch (error) {
    fail(error)
  }
}
function jobRow(job) {
  const lease = job.lease
  const actions = [button("Run now", "job-run", () => runJob(job.name))]
  if (lease.status !== "free") {
    actions.push(button("Release lease", "job-release", () => releaseLease(job.name), { class: "danger" }))
  }
  return el(
    "tr",
    { "data-testid": "job-row", "data-job": job.name },
    el("td", { class: "mono", "data-testid": "job-name" }, job.name),
    el("td", { class: "mono" }, job.cron),
    el("td", {}, job.exclusive ? "yes" : "no"),
    el("td", {}, duration(job.timeoutMs)),
    el("td", {}, when(job.nextSlot)),
    el(
      "td",
      {},
      badge(lease.status, "lease-status"),
      lease.holder ? el("div", { class: "sub mono" }, "holder " + lease.holder) : null,
      lease.leaseUntil !== null ? el("div", { class: "sub" }, "until ", when(lease.leaseUntil)) : null,
    ),
    el("td", {}, when(lease.lastSlot)),
    el("td", { class: "actions" }, actions),
  )
}
function runJob(name) {
  action(
    "Run " + name + " now, for the current slot?",
    () => api("POST", "/jobs/" + enc(name) + "/run"),
    (r) => "Ran " + r.job + " for slot " + new Date(r.slot).toISOString() + ": " + r.status + " in " + r.ms + " ms",
    loadJobs,
  )
}
function releaseLease(name) {
  action(
    "Release the lease of " + name + "? A run still going would then overlap with the next one.",
    () => api("DELETE", "/leases/" + enc(name)),
    (r) => (r.released ? "Released the lease of " + name : "The lease of " + name + " was already free"),
    loadJobs,
  )
}

// Streams, a page at a time; cursors[i] is the cursor that fetches page i.
const streams = { cursors: [null], page: 0 }
async function loadStreams() {
  try {
    const cursor = streams.cursors[streams.page]
    const data = await api("GET", "/streams?limit=" + PAGE_SIZE + (cursor ? "&cursor=" + enc(cursor) : ""))
    streams.cursors.length = streams.page + 1
    if (data.cursor) streams.cursors.push(data.cursor)
    $("streams-list").replaceChildren(...data.streams.map(streamItem))
    if (data.streams.length === 0) $("streams-list").append(el("li", { class: "none" }, "No streams yet."))
    $("streams-prev").disabled = streams.page === 0
    $("streams-next").disabled = !data.cursor
    $("streams-page").textContent = "page " + (streams.page + 1)
  } catch (error) {
    fail(error)
  }
}
function streamItem(stream) {
  const attrs = { "data-stream": stream.name, "aria-current": String(stream.name === schedules.stream) }
  const link = button(stream.name, "stream-link", () => openStream(stream.name), attrs)
  link.title = stream.name + (stream.listedAt ? " · listed " + new Date(stream.listedAt).toISOString() : "")
  return el("li", {}, link)
}
$("streams-prev").addEventListener("click", () => {
  streams.page = Math.max(0, streams.page - 1)
  loadStreams()
})
$("streams-next").addEventListener("click", () => {
  streams.page += 1
  loadStreams()
})
$("stream-open").addEventListener("submit", (event) => {
  event.preventDefault()
  const name = $("stream-input").value.trim()
  if (name) openStream(name)
})

// One stream's schedules, filtered by state and paged by cursor; gen drops answers that arrive out of order.
const schedules = { stream: null, state: "", cursors: [null], page: 0, selected: null, gen: 0 }
function openStream(name) {
  Object.assign(schedules, { stream: name, cursors: [null], page: 0, selected: null })
  for (const link of document.querySelectorAll('[data-testid="stream-link"]')) {
    link.setAttribute("aria-current", String(link.dataset.stream === name))
  }
  $("stream-name").textContent = name
  $("schedules-panel").hidden = false
  $("events-panel").hidden = true
  loadSchedules()
}
async function loadSchedules() {
  const gen = ++schedules.gen
  const cursor = schedules.cursors[schedules.page]
  const query = "?limit=" + PAGE_SIZE + (schedules.state ? "&state=" + schedules.state : "")
  try {
    const data = await api(
      "GET",
      "/streams/" + enc(schedules.stream) + "/schedules" + query + (cursor ? "&cursor=" + enc(cursor) : ""),
    )
    if (gen !== schedules.gen) return
    schedules.cursors.length = schedules.page + 1
    if (data.cursor) schedules.cursors.push(data.cursor)
    $("schedules-body").replaceChildren(...data.schedules.map(scheduleRow))
    if (data.schedules.length === 0) $("schedules-body").append(emptyRow(7, "No schedules here."))
    $("schedules-prev").disabled = schedules.page === 0
    $("schedules-next").disabled = !data.cursor
    $("schedules-page").textContent = "page " + (schedules.page + 1)
    if (schedules.selected) await loadSchedule()
  } catch (error) {
    if (gen === schedules.gen) fail(error)
  }
}
function scheduleRow(s) {
  const retrying = s.state === "scheduled" && s.retryAt !== null
  return el(
    "tr",
    { "data-testid": "schedule-row", "data-id": s.id, "aria-selected": String(s.id === schedules.selected) },
    el("td", { class: "name" }, el("div", { class: "mono id", title: s.id }, s.id), el("div", { class: "sub nowrap" }, s.consumer)),
    el("td", {}, timing(s.timing)),
    el(
      "td",
      {},
      badge(s.state, "schedule-state"),
      retrying ? el("div", {}, badge("retrying", "schedule-retrying")) : null,
    ),
    el(
      "td",
      {},
      String(s.attempts) + (s.maxAttempts ? " / " + s.maxAttempts : ""),
      el("div", { class: "sub nowrap" }, "occurrence " + s.occurrence),
    ),
    el("td", { "data-testid": "schedule-due" }, due(s)),
    el("td", { "data-testid": "schedule-error" }, el("div", { class: "error", title: s.lastError }, s.lastError)),
    el(
      "td",
      {},
      el(
        "div",
        { class: "actions grid" },
        button("Events", "schedule-events", () => selectSchedule(s.id)),
        button("Cancel", "schedule-cancel", () => scheduleAction(s.id, "cancel"), { class: "danger" }),
        button("Resume", "schedule-resume", () => scheduleAction(s.id, "resume")),
        button("Trigger", "schedule-trigger", () => scheduleAction(s.id, "trigger")),
        s.state === "scheduled"
          ? null
          : button("Remove", "schedule-remove", () => scheduleAction(s.id, "remove"), { class: "danger" }),
      ),
    ),
  )
}
// When the stream next looks at it: the retry of a failed attempt, else the occurrence (eligibleAt covers a claim).
function due(s) {
  if (s.retryAt !== null) return [el("div", { class: "sub" }, "retry at"), when(s.retryAt), occurrenceDue(s)]
  if (s.eligibleAt !== s.nextAt) return [when(s.eligibleAt), occurrenceDue(s)]
  return when(s.nextAt)
}
const occurrenceDue = (s) => el("div", { class: "sub" }, "occurrence due ", when(s.nextAt))
const QUESTIONS = {
  cancel: "Cancel schedule {id}? It stops firing until resumed.",
  resume: "Resume schedule {id}? It fires again from its next due time.",
  trigger: "Trigger schedule {id} now? Its current occurrence is delivered at once.",
  remove: "Remove schedule {id} now? Its row is deleted; reusing its id later starts again at occurrence 1.",
}
function scheduleAction(id, verb) {
  const stream = schedules.stream
  // A removed schedule has nothing left to show: its detail closes, so no refresh asks for it.
  if (verb === "remove") {
    schedules.selected = null
    $("events-panel").hidden = true
  } else selectSchedule(id)
  action(
    QUESTIONS[verb].replace("{id}", id + " in stream " + stream),
    () =>
      verb === "remove"
        ? api("DELETE", "/streams/" + enc(stream) + "/schedules/" + enc(id))
        : api("POST", "/streams/" + enc(stream) + "/schedules/" + enc(id) + "/" + verb),
    (r) =>
      verb === "remove"
        ? "removed " + id
        : verb + " " + id + ": now " + r.schedule.state + (r.schedule.lastError ? " (" + r.schedule.lastError + ")" : ""),
    loadSchedules,
  )
}
$("state-filter").addEventListener("change", () => {
  Object.assign(schedules, { state: $("state-filter").value, cursors: [null], page: 0 })
  loadSchedules()
})
$("schedules-prev").addEventListener("click", () => {
  schedules.page = Math.max(0, schedules.page - 1)
  loadSchedules()
})
$("schedules-next").addEventListener("click", () => {
  schedules.page += 1
  loadSchedules()
})
$("schedules-refresh").addEventListener("click", () => loadSchedules())
$("jobs-refresh").addEventListener("click", () => loadJobs())
$("streams-refresh").addEventListener("click", () => loadStreams())

// One schedule: its definition and its newest events.
function selectSchedule(id) {
  schedules.selected = id
  for (const row of document.querySelectorAll('[data-testid="schedule-row"]')) {
    row.setAttribute("aria-selected", String(row.dataset.id === id))
  }
  loadSchedule()
}
async function loadSchedule() {
  const stream = schedules.stream
  const id = schedules.selected
  try {
    const data = await api("GET", "/streams/" + enc(stream) + "/schedules/" + enc(id))
    if (stream !== schedules.stream || id !== schedules.selected) return
    const s = data.schedule
    $("events-name").textContent = stream + " / " + id
    $("schedule-detail").replaceChildren(
      ...[
        ["consumer", el("span", { class: "mono" }, s.consumer)],
        ["timing", timing(s.timing)],
        ["state", badge(s.state, "detail-state")],
        ["payload", el("pre", {}, JSON.stringify(s.payload, null, 2))],
        ["claimed until", when(s.claimUntil)],
        ["created", when(s.createdAt)],
        ["updated", when(s.updatedAt)],
      ].flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]),
    )
    $("events-body").replaceChildren(...data.events.map(eventRow))
    if (data.events.length === 0) $("events-body").append(emptyRow(4, "No events recorded."))
    $("events-panel").hidden = false
  } catch (error) {
    fail(error)
  }
}
const eventRow = (e) =>
  el(
    "tr",
    { "data-testid": "event-row", "data-type": e.type },
    el("td", { class: "mono" }, String(e.seq)),
    el("td", {}, when(e.at)),
    el("td", { class: "mono" }, e.type),
    el("td", {}, el("pre", {}, JSON.stringify(e.data))),
  )
`
