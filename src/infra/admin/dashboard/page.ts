import { html, raw } from "hono/html"
import { STATES } from "../../schedules/contract/states.ts"

// The browser code finds elements by id; data-testid attributes are for the browser tests only.
// html`` escapes every interpolated value; raw() only wraps this module's own constants and the generated stylesheet and script.

/** html`` over markup laid out for reading: a line break and the indentation around it are not part of the page. */
const markup = (strings: TemplateStringsArray, ...values: unknown[]) =>
  html(
    Object.assign(
      strings.map((part) => part.replace(/\s*\n\s*/g, "")),
      { raw: strings.raw },
    ),
    ...values,
  )

const pager = (name: string, short = false) => markup`
  <button type="button" id="${name}-prev" data-testid="${name}-prev" aria-label="Previous page of ${name}" disabled="">${short ? "‹" : "Previous page"}</button>
  <span class="sub" id="${name}-page" data-testid="${name}-page">page 1</span>
  <button type="button" id="${name}-next" data-testid="${name}-next" aria-label="Next page of ${name}" disabled="">${short ? "›" : "Next page"}</button>
`

const refresh = (name: string) => markup`
  <button type="button" id="${name}-refresh" data-testid="${name}-refresh">Refresh</button>
`

/** Is the heartbeat alive, is a stream behind, is anything retrying: the first things an operator asks. */
const health = () => markup`
  <section id="health" data-testid="health-panel" aria-label="Health">
    <h2>Health <span id="health-verdict" data-testid="health-verdict"></span><span class="spacer"></span>${refresh("health")}</h2>
    <div class="signals">
      <div>
        <h3>Heartbeat</h3>
        <div id="health-heartbeat" data-testid="health-heartbeat"></div>
      </div>
      <div>
        <h3>Streams behind (watchdog)</h3>
        <div id="health-watchdog" data-testid="health-watchdog"></div>
      </div>
      <div>
        <h3>Retrying</h3>
        <div id="health-retrying" data-testid="health-retrying"></div>
      </div>
      <div>
        <h3>Paused jobs</h3>
        <div id="health-paused" data-testid="health-paused"></div>
      </div>
    </div>
  </section>
`

const jobs = () => markup`
  <section data-testid="jobs-panel">
    <h2>Jobs<span class="spacer"></span>${refresh("jobs")}</h2>
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Cron (UTC)</th>
          <th>Exclusive</th>
          <th>Next run</th>
          <th>Lease</th>
          <th>Last run</th>
          <th>Today (UTC)</th>
          <th></th>
        </tr>
      </thead>
      <tbody id="jobs-body" data-testid="jobs-body"></tbody>
    </table>
  </section>
  <section id="runs-panel" data-testid="runs-panel" hidden="">
    <h2>Runs of <span class="mono" id="runs-name" data-testid="runs-name"></span></h2>
    <div class="charts" id="job-charts" data-testid="job-charts"></div>
    <p class="sub">Newest first: each slot the cron named or a run took, back to the oldest run the lease row keeps.</p>
    <table>
      <thead>
        <tr>
          <th>Slot</th>
          <th>Outcome</th>
          <th>Took</th>
          <th>Finished</th>
          <th>Run id</th>
          <th>Error</th>
        </tr>
      </thead>
      <tbody id="runs-body" data-testid="runs-body"></tbody>
    </table>
  </section>
`

const streams = () => markup`
  <section data-testid="streams-panel">
    <h2>Streams<span class="spacer"></span>${refresh("streams")}</h2>
    <form class="toolbar" id="stream-open" data-testid="stream-open">
      <input id="stream-input" data-testid="stream-input" placeholder="open a stream…" aria-label="Stream name"/>
    </form>
    <ul class="streams" id="streams-list" data-testid="streams-list"></ul>
    <div class="toolbar">${pager("streams", true)}</div>
  </section>
`

const schedules = () => markup`
  <section id="schedules-panel" data-testid="schedules-panel" hidden="">
    <h2>Schedules in <span class="mono" id="stream-name" data-testid="stream-name"></span></h2>
    <p class="missing" id="stream-missing" data-testid="stream-missing" role="alert" hidden=""></p>
    <div id="stream-found">
      <div class="summary" id="stream-summary" data-testid="stream-summary"></div>
      <div class="toolbar">
        <button type="button" id="history-day" data-testid="history-day" aria-pressed="true">Last day</button>
        <button type="button" id="history-month" data-testid="history-month" aria-pressed="false">30 days</button>
      </div>
      <div class="charts" id="stream-charts" data-testid="stream-charts"></div>
      <div class="toolbar">
        <label>State <select id="state-filter" data-testid="state-filter">
          <option value="">all</option>
          ${STATES.map((state) => markup`<option value="${state}">${state}</option>`)}
        </select></label>
        <span class="spacer"></span>
        ${pager("schedules")}
        ${refresh("schedules")}
      </div>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th>Schedule</th>
              <th>Timing</th>
              <th>State</th>
              <th>Attempts</th>
              <th>Next due / retry at</th>
              <th>Last error</th>
              <th></th>
            </tr>
          </thead>
          <tbody id="schedules-body" data-testid="schedules-body"></tbody>
        </table>
      </div>
    </div>
  </section>
`

const events = () => markup`
  <section id="events-panel" data-testid="events-panel" hidden="">
    <h2>Schedule <span class="mono" id="events-name" data-testid="events-name"></span></h2>
    <dl class="detail" id="schedule-detail" data-testid="schedule-detail"></dl>
    <form class="toolbar" id="backfill-form" data-testid="backfill-form" hidden="">
      <strong>Backfill</strong>
      <label>from <input type="datetime-local" step="1" id="backfill-from" data-testid="backfill-from" required=""></label>
      <label>to <input type="datetime-local" step="1" id="backfill-to" data-testid="backfill-to" required=""></label>
      <span class="sub">local time</span>
      <button type="button" id="backfill-preview" data-testid="backfill-preview">Preview</button>
      <span id="backfill-count" data-testid="backfill-count" role="status"></span>
      <button type="submit" id="backfill-run" data-testid="backfill-run" disabled="">Backfill</button>
    </form>
    <table>
      <thead>
        <tr>
          <th>Seq</th>
          <th>At</th>
          <th>Event</th>
          <th>Data</th>
        </tr>
      </thead>
      <tbody id="events-body" data-testid="events-body"></tbody>
    </table>
  </section>
`

/**
 * The whole document, doctype first: a static shell with no data and no token; the inline script fetches everything.
 * The nonce lets the inline style and script past the CSP. Rendered at build time (scripts/dashboard/bundle.ts) with
 * a mark where each request's nonce goes, so this markup stays out of the Worker's hot module.
 */
export const pageShell = (nonce: string, style: string, script: string) =>
  String(markup`
  <!doctype html>
  <html lang="en">
    <head>
      <meta charset="utf-8"/>
      <meta name="viewport" content="width=device-width, initial-scale=1"/>
      <meta name="referrer" content="no-referrer"/>
      <title>slotwise admin</title>
      <link rel="icon" href="data:,"/>
      <style nonce="${nonce}">${raw(style)}</style>
    </head>
    <body>
      <header>
        <h1>slotwise admin</h1>
        <div id="status" data-testid="status" role="status" aria-live="polite"></div>
        <label class="toggle" id="auto-refresh-label" data-on="false" hidden=""><input type="checkbox" id="auto-refresh" data-testid="auto-refresh"/> Auto-refresh (10 s)</label>
        <button type="button" id="forget-token" data-testid="forget-token" hidden="">Forget token</button>
      </header>
      <noscript><p>This page needs JavaScript.</p></noscript>
      <form class="token" id="token-form" data-testid="token-form" autocomplete="off" hidden="">
        <label for="token-input">Admin token</label>
        <input id="token-input" data-testid="token-input" type="password" autocomplete="off" required=""/>
        <p>Kept in this tab only (sessionStorage) and sent as an Authorization header.</p>
        <p id="token-message" data-testid="token-message"></p>
        <button type="submit" data-testid="token-submit">Open dashboard</button>
      </form>
      <main id="app" data-testid="app" hidden="">
        ${health()}
        ${jobs()}
        <div class="columns">
          ${streams()}
          <div class="stack">${schedules()}${events()}</div>
        </div>
      </main>
      <script nonce="${nonce}">${raw(script)}</script>
    </body>
  </html>
`)
