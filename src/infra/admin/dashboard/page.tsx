import { html } from "hono/html"
import { STATES } from "../../schedules/client/states.ts"
import { SCRIPT } from "./script.generated.ts"
import { STYLE } from "./style.ts"

// The browser code finds elements by id; data-testid attributes are for the browser tests only.

const Pager = ({ name, short }: { name: string; short?: boolean }) => (
  <>
    <button
      type="button"
      id={`${name}-prev`}
      data-testid={`${name}-prev`}
      aria-label={`Previous page of ${name}`}
      disabled
    >
      {short ? "‹" : "Previous page"}
    </button>
    <span class="sub" id={`${name}-page`} data-testid={`${name}-page`}>
      page 1
    </span>
    <button type="button" id={`${name}-next`} data-testid={`${name}-next`} aria-label={`Next page of ${name}`} disabled>
      {short ? "›" : "Next page"}
    </button>
  </>
)

const Refresh = ({ name }: { name: string }) => (
  <button type="button" id={`${name}-refresh`} data-testid={`${name}-refresh`}>
    Refresh
  </button>
)

/** Is the heartbeat alive, is a stream behind, is anything retrying: the first things an operator asks. */
const Health = () => (
  <section id="health" data-testid="health-panel" aria-label="Health">
    <h2>
      Health
      <span class="spacer" />
      <Refresh name="health" />
    </h2>
    <div class="signals">
      <div>
        <h3>Heartbeat</h3>
        <div id="health-heartbeat" data-testid="health-heartbeat" />
      </div>
      <div>
        <h3>Streams behind (watchdog)</h3>
        <div id="health-watchdog" data-testid="health-watchdog" />
      </div>
      <div>
        <h3>Retrying</h3>
        <div id="health-retrying" data-testid="health-retrying" />
      </div>
    </div>
  </section>
)

const Jobs = () => (
  <>
    <section data-testid="jobs-panel">
      <h2>
        Jobs
        <span class="spacer" />
        <Refresh name="jobs" />
      </h2>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Cron (UTC)</th>
            <th>Exclusive</th>
            <th>Next run</th>
            <th>Lease</th>
            <th>Last run</th>
            <th />
          </tr>
        </thead>
        <tbody id="jobs-body" data-testid="jobs-body" />
      </table>
    </section>
    <section id="runs-panel" data-testid="runs-panel" hidden>
      <h2>
        Runs of <span class="mono" id="runs-name" data-testid="runs-name" />
      </h2>
      <p class="sub">
        Newest first: each slot the cron named or a run took, back to the oldest run the lease row keeps.
      </p>
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
        <tbody id="runs-body" data-testid="runs-body" />
      </table>
    </section>
  </>
)

const Streams = () => (
  <section data-testid="streams-panel">
    <h2>
      Streams
      <span class="spacer" />
      <Refresh name="streams" />
    </h2>
    <form class="toolbar" id="stream-open" data-testid="stream-open">
      <input id="stream-input" data-testid="stream-input" placeholder="open a stream…" aria-label="Stream name" />
    </form>
    <ul class="streams" id="streams-list" data-testid="streams-list" />
    <div class="toolbar">
      <Pager name="streams" short />
    </div>
  </section>
)

const Schedules = () => (
  <section id="schedules-panel" data-testid="schedules-panel" hidden>
    <h2>
      Schedules in <span class="mono" id="stream-name" data-testid="stream-name" />
    </h2>
    <p class="missing" id="stream-missing" data-testid="stream-missing" role="alert" hidden />
    <div id="stream-found">
      <div class="summary" id="stream-summary" data-testid="stream-summary" />
      <div class="toolbar">
        <label>
          State{" "}
          <select id="state-filter" data-testid="state-filter">
            <option value="">all</option>
            {STATES.map((state) => (
              <option value={state}>{state}</option>
            ))}
          </select>
        </label>
        <span class="spacer" />
        <Pager name="schedules" />
        <Refresh name="schedules" />
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
              <th />
            </tr>
          </thead>
          <tbody id="schedules-body" data-testid="schedules-body" />
        </table>
      </div>
    </div>
  </section>
)

const Events = () => (
  <section id="events-panel" data-testid="events-panel" hidden>
    <h2>
      Schedule <span class="mono" id="events-name" data-testid="events-name" />
    </h2>
    <dl class="detail" id="schedule-detail" data-testid="schedule-detail" />
    <table>
      <thead>
        <tr>
          <th>Seq</th>
          <th>At</th>
          <th>Event</th>
          <th>Data</th>
        </tr>
      </thead>
      <tbody id="events-body" data-testid="events-body" />
    </table>
  </section>
)

/** The dashboard's static shell: no data and no token; the inline script fetches everything. */
const Page = ({ nonce }: { nonce: string }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>slotwise admin</title>
      <link rel="icon" href="data:," />
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE }} />
    </head>
    <body>
      <header>
        <h1>slotwise admin</h1>
        <div id="status" data-testid="status" role="status" aria-live="polite" />
        <label class="toggle" id="auto-refresh-label" data-on="false" hidden>
          <input type="checkbox" id="auto-refresh" data-testid="auto-refresh" /> Auto-refresh (10 s)
        </label>
        <button type="button" id="forget-token" data-testid="forget-token" hidden>
          Forget token
        </button>
      </header>
      <noscript>
        <p>This page needs JavaScript.</p>
      </noscript>

      <form class="token" id="token-form" data-testid="token-form" autocomplete="off" hidden>
        <label for="token-input">Admin token</label>
        <input id="token-input" data-testid="token-input" type="password" autocomplete="off" required />
        <p>Kept in this tab only (sessionStorage) and sent as an Authorization header.</p>
        <p id="token-message" data-testid="token-message" />
        <button type="submit" data-testid="token-submit">
          Open dashboard
        </button>
      </form>

      <main id="app" data-testid="app" hidden>
        <Health />
        <Jobs />
        <div class="columns">
          <Streams />
          <div class="stack">
            <Schedules />
            <Events />
          </div>
        </div>
      </main>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />
    </body>
  </html>
)

/** The whole document, doctype first; the nonce lets the inline style and script past the CSP. */
export const dashboardPage = (nonce: string) => html`<!doctype html>${<Page nonce={nonce} />}`
