import { html } from "hono/html"
import { SCRIPT } from "./browser/index.ts"
import { STYLE } from "./style.ts"

const STATES = ["scheduled", "completed", "cancelled", "failed"] as const

const Pager = ({ name, short }: { name: string; short?: boolean }) => (
  <>
    <button type="button" data-testid={`${name}-prev`} aria-label={`Previous page of ${name}`} disabled>
      {short ? "‹" : "Previous page"}
    </button>
    <span class="sub" data-testid={`${name}-page`}>
      page 1
    </span>
    <button type="button" data-testid={`${name}-next`} aria-label={`Next page of ${name}`} disabled>
      {short ? "›" : "Next page"}
    </button>
  </>
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
        <div data-testid="status" role="status" aria-live="polite" />
        <button type="button" data-testid="forget-token" hidden>
          Forget token
        </button>
      </header>
      <noscript>
        <p>This page needs JavaScript.</p>
      </noscript>

      <form class="token" data-testid="token-form" autocomplete="off" hidden>
        <label for="token-input">Admin token</label>
        <input id="token-input" data-testid="token-input" type="password" autocomplete="off" required />
        <p>Kept in this tab only (sessionStorage) and sent as an Authorization header.</p>
        <p data-testid="token-message" />
        <button type="submit" data-testid="token-submit">
          Open dashboard
        </button>
      </form>

      <main data-testid="app" hidden>
        <section data-testid="jobs-panel">
          <h2>
            Jobs
            <span class="spacer" />
            <button type="button" data-testid="jobs-refresh">
              Refresh
            </button>
          </h2>
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Cron (UTC)</th>
                <th>Exclusive</th>
                <th>Timeout</th>
                <th>Next run</th>
                <th>Lease</th>
                <th>Last slot</th>
                <th />
              </tr>
            </thead>
            <tbody data-testid="jobs-body" />
          </table>
        </section>

        <div class="columns">
          <section data-testid="streams-panel">
            <h2>
              Streams
              <span class="spacer" />
              <button type="button" data-testid="streams-refresh">
                Refresh
              </button>
            </h2>
            <form class="toolbar" data-testid="stream-open">
              <input data-testid="stream-input" placeholder="open a stream…" aria-label="Stream name" />
            </form>
            <ul class="streams" data-testid="streams-list" />
            <div class="toolbar">
              <Pager name="streams" short />
            </div>
          </section>

          <div class="stack">
            <section data-testid="schedules-panel" hidden>
              <h2>
                Schedules in <span class="mono" data-testid="stream-name" />
              </h2>
              <div class="toolbar">
                <label>
                  State{" "}
                  <select data-testid="state-filter">
                    <option value="">all</option>
                    {STATES.map((state) => (
                      <option value={state}>{state}</option>
                    ))}
                  </select>
                </label>
                <span class="spacer" />
                <Pager name="schedules" />
                <button type="button" data-testid="schedules-refresh">
                  Refresh
                </button>
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
                  <tbody data-testid="schedules-body" />
                </table>
              </div>
            </section>

            <section data-testid="events-panel" hidden>
              <h2>
                Schedule <span class="mono" data-testid="events-name" />
              </h2>
              <dl class="detail" data-testid="schedule-detail" />
              <table>
                <thead>
                  <tr>
                    <th>Seq</th>
                    <th>At</th>
                    <th>Event</th>
                    <th>Data</th>
                  </tr>
                </thead>
                <tbody data-testid="events-body" />
              </table>
            </section>
          </div>
        </div>
      </main>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />
    </body>
  </html>
)

/** The whole document, doctype first; the nonce lets the inline style and script past the CSP. */
export const dashboardPage = (nonce: string) => html`<!doctype html>${<Page nonce={nonce} />}`
