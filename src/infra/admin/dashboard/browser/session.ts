/** Browser code: the status area, the API calls with the bearer token, confirmed actions, the token prompt. */
export const SESSION = `
// The status area: the outcome of the last action or the last error.
function say(text, kind) {
  const status = $("status")
  status.textContent = text
  status.dataset.kind = kind
  status.title = text
}

class NeedToken extends Error {}
class Problem extends Error {
  constructor(status, body) {
    super(status + " " + (body.title || "Error") + (body.detail ? ": " + body.detail : ""))
    this.status = status
  }
}
function fail(error) {
  if (error instanceof NeedToken) askToken(error.message)
  else say(error.message, "error")
}

async function api(method, path, body) {
  const token = sessionStorage.getItem(TOKEN_KEY)
  if (!token) throw new NeedToken("")
  const headers = { authorization: "Bearer " + token }
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  })
  if (res.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY)
    throw new NeedToken("The token was refused (401 Unauthorized): enter it again.")
  }
  const text = await res.text()
  let data = {}
  try {
    data = text ? JSON.parse(text) : {}
  } catch {
    data = { title: res.statusText, detail: text.slice(0, 300) }
  }
  // A configured token no bearer header can carry: the token form shows why (the server's rule).
  if (res.status === 503 && String(data.type).endsWith("/admin-token-unusable")) {
    sessionStorage.removeItem(TOKEN_KEY)
    throw new NeedToken(data.detail)
  }
  if (!res.ok) throw new Problem(res.status, data)
  return data
}

// Every action is confirmed first; its outcome lands in the status area, then the views refresh.
async function action(question, request, describe, refresh) {
  if (!window.confirm(question)) return
  say("Working…", "busy")
  try {
    say(describe(await request()), "ok")
  } catch (error) {
    if (error instanceof NeedToken) return askToken(error.message)
    say(error.message, "error")
  }
  await refresh()
}

// The token: kept in this tab's sessionStorage only, sent as a bearer header, never a cookie.
function askToken(message) {
  $("app").hidden = true
  $("forget-token").hidden = true
  $("token-form").hidden = false
  $("token-message").textContent = message || ""
  $("token-input").focus()
}
function start() {
  $("token-form").hidden = true
  $("app").hidden = false
  $("forget-token").hidden = false
  say("", "info")
  loadJobs()
  loadStreams()
  if (schedules.stream) loadSchedules()
}
$("token-form").addEventListener("submit", (event) => {
  event.preventDefault()
  const token = $("token-input").value.trim()
  if (!token) return
  sessionStorage.setItem(TOKEN_KEY, token)
  $("token-input").value = ""
  start()
})
$("forget-token").addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY)
  // Nothing fetched with the token stays on the page.
  for (const testid of ["jobs-body", "streams-list", "schedules-body", "schedule-detail", "events-body"]) {
    $(testid).replaceChildren()
  }
  Object.assign(streams, { cursors: [null], page: 0 })
  Object.assign(schedules, { stream: null, cursors: [null], page: 0, selected: null, gen: schedules.gen + 1 })
  $("stream-input").value = ""
  $("schedules-panel").hidden = true
  $("events-panel").hidden = true
  say("", "info")
  askToken("Token forgotten.")
})
`
