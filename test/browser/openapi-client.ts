/**
 * The typed admin client the OpenAPI test compiles (tsc, strict) against the types openapi-typescript
 * generates from /admin/openapi.json, then runs against `wrangler dev`: every operation through
 * openapi-fetch, using the answers' typed fields (an answer typed `never` does not compile).
 * A schedule's PUT body with two timings must not compile. Kept as text: it imports the generated
 * `./schema.ts`, which exists only in the test's directory.
 */
export const CLIENT_SOURCE = `
import createClient from "openapi-fetch"
import type { paths } from "./schema.ts"

export interface Answer {
  operation: string
  method: string
  path: string
  status: number
  contentType: string | null
  body: unknown
}

type Outcome = { data?: unknown; error?: unknown; response: Response }

/** Calls every admin operation once or more; each answer with what the document should say about it. */
export async function callEveryOperation(baseUrl: string, token: string): Promise<Answer[]> {
  const admin = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } })
  const anonymous = createClient<paths>({ baseUrl })
  const answers: Answer[] = []
  const record = async <T extends Outcome>(operation: string, method: string, path: string, call: Promise<T>) => {
    const outcome = await call
    const { status, headers } = outcome.response
    answers.push({ operation, method, path, status, contentType: headers.get("content-type"), body: outcome.data ?? outcome.error })
    return outcome
  }

  const health = await record("health", "get", "/health", admin.GET("/health"))
  const now: number | undefined = health.data?.now
  await record("health", "get", "/health", anonymous.GET("/health"))

  const jobs = await record("jobs", "get", "/jobs", admin.GET("/jobs"))
  const job: string = jobs.data?.jobs[0]?.name ?? "billing.roll-up-usage"
  const run = await record(
    "runJob", "post", "/jobs/{name}/run",
    admin.POST("/jobs/{name}/run", { params: { path: { name: job } } }),
  )
  const outcome: "ran" | "failed" | "timed-out" | undefined = run.data?.status
  await record(
    "runJob", "post", "/jobs/{name}/run",
    admin.POST("/jobs/{name}/run", { params: { path: { name: "no-such-job" } } }),
  )

  const hours = await record(
    "jobHistory", "get", "/jobs/{name}/history",
    admin.GET("/jobs/{name}/history", { params: { path: { name: job }, query: { days: 2 } } }),
  )
  const due: number | undefined = hours.data?.hours[0]?.due
  const median: number | null | undefined = hours.data?.hours[0]?.medianMs
  await record(
    "jobHistory", "get", "/jobs/{name}/history",
    admin.GET("/jobs/{name}/history", { params: { path: { name: job }, query: { days: 31 } } }),
  )

  const paused = await record(
    "pauseJob", "post", "/jobs/{name}/pause",
    admin.POST("/jobs/{name}/pause", { params: { path: { name: job } }, body: { reason: "the typed client pauses it" } }),
  )
  const since: number | undefined = paused.data?.pause.pausedAt
  await record(
    "pauseJob", "post", "/jobs/{name}/pause",
    admin.POST("/jobs/{name}/pause", { params: { path: { name: job } }, body: { reason: "" } }),
  )
  const resumed = await record(
    "resumeJob", "post", "/jobs/{name}/resume",
    admin.POST("/jobs/{name}/resume", { params: { path: { name: job } } }),
  )
  const until: number | null | undefined = resumed.data?.pause.resumedAt
  await record(
    "resumeJob", "post", "/jobs/{name}/resume",
    admin.POST("/jobs/{name}/resume", { params: { path: { name: job } } }),
  )

  const leases = await record("leases", "get", "/leases", admin.GET("/leases"))
  const held: boolean | undefined = leases.data?.leases.some((lease) => lease.status === "held")
  await record(
    "releaseLease", "delete", "/leases/{name}",
    admin.DELETE("/leases/{name}", { params: { path: { name: job }, query: { force: "true" } } }),
  )
  await record(
    "releaseLease", "delete", "/leases/{name}",
    admin.DELETE("/leases/{name}", { params: { path: { name: "no-such-lease" } } }),
  )

  const at = { stream: "openapi-client", id: "reminder" }
  const put = await record(
    "putSchedule", "put", "/streams/{stream}/schedules/{id}",
    admin.PUT("/streams/{stream}/schedules/{id}", {
      params: { path: at },
      body: { consumer: "billing.trial-reminder", after: "1 hour", payload: { account: "acme" } },
    }),
  )
  const nextAt: number | undefined = put.data?.schedule.nextAt
  await record(
    "putSchedule", "put", "/streams/{stream}/schedules/{id}",
    admin.PUT("/streams/{stream}/schedules/{id}", {
      params: { path: at },
      body: { consumer: "billing.trial-reminder", after: "1 hour", maxAttempts: 0 },
    }),
  )

  const streams = await record("streams", "get", "/streams", admin.GET("/streams", { params: { query: { limit: 10 } } }))
  const listed: string | undefined = streams.data?.streams[0]?.name
  await record("streams", "get", "/streams", admin.GET("/streams", { params: { query: { cursor: ".." } } }))
  const summary = await record(
    "summary", "get", "/streams/{stream}/summary",
    admin.GET("/streams/{stream}/summary", { params: { path: { stream: at.stream } } }),
  )
  const scheduled: number | undefined = summary.data?.counts.scheduled
  await record(
    "summary", "get", "/streams/{stream}/summary",
    admin.GET("/streams/{stream}/summary", { params: { path: { stream: "no-such-stream" } } }),
  )
  const page = await record(
    "schedules", "get", "/streams/{stream}/schedules",
    admin.GET("/streams/{stream}/schedules", { params: { path: { stream: at.stream }, query: { state: "scheduled" } } }),
  )
  const kind: string | undefined = page.data?.schedules[0]?.timing.kind
  const one = await record(
    "schedule", "get", "/streams/{stream}/schedules/{id}",
    admin.GET("/streams/{stream}/schedules/{id}", { params: { path: at } }),
  )
  const seq: number | undefined = one.data?.events[0]?.seq
  for (const verb of ["trigger", "cancel", "resume", "cancel"] as const) {
    const path = \`/streams/{stream}/schedules/{id}/\${verb}\` as const
    const acted = await record(verb, "post", path, admin.POST(path, { params: { path: at } }))
    const state: "scheduled" | "completed" | "cancelled" | "failed" | undefined = acted.data?.schedule.state
    void state
  }
  const noted = await record(
    "cancel", "post", "/streams/{stream}/schedules/{id}/cancel",
    admin.POST("/streams/{stream}/schedules/{id}/cancel", { params: { path: at }, body: { reason: "paused by ops" } }),
  )
  const note: string | null | undefined = noted.data?.schedule.cancelReason
  // A reason is a string: a number must not compile (the server would answer 400).
  // @ts-expect-error reason: 42
  const typedReason = () => admin.POST("/streams/{stream}/schedules/{id}/cancel", { params: { path: at }, body: { reason: 42 } })
  void typedReason
  const hourly = { stream: at.stream, id: "hourly" }
  await record(
    "putSchedule", "put", "/streams/{stream}/schedules/{id}",
    admin.PUT("/streams/{stream}/schedules/{id}", {
      params: { path: hourly },
      body: { consumer: "billing.trial-reminder", every: "1 hour", startAt: Date.now() - 86_400_000, times: 48, jitter: "5 minutes" },
    }),
  )
  const preview = await record(
    "backfill", "post", "/streams/{stream}/schedules/{id}/backfill",
    admin.POST("/streams/{stream}/schedules/{id}/backfill", {
      params: { path: hourly },
      body: { from: Date.now() - 6 * 3_600_000, to: Date.now() - 60_000, dryRun: true },
    }),
  )
  const count: number | undefined = preview.data?.backfill.count
  await record(
    "backfill", "post", "/streams/{stream}/schedules/{id}/backfill",
    admin.POST("/streams/{stream}/schedules/{id}/backfill", {
      params: { path: at },
      body: { from: Date.now() - 6 * 3_600_000, to: Date.now() - 60_000 },
    }),
  )
  const events = await record(
    "events", "get", "/streams/{stream}/events",
    admin.GET("/streams/{stream}/events", { params: { path: { stream: at.stream }, query: { limit: 5 } } }),
  )
  const type: string | undefined = events.data?.events[0]?.type
  const history = await record(
    "streamHistory", "get", "/streams/{stream}/history",
    admin.GET("/streams/{stream}/history", { params: { path: { stream: at.stream }, query: { range: "month" } } }),
  )
  const step: number | undefined = history.data?.stepMs
  const delivered: number | undefined = history.data?.points[0]?.delivered
  await record(
    "streamHistory", "get", "/streams/{stream}/history",
    admin.GET("/streams/{stream}/history", { params: { path: { stream: "no-such-stream" } } }),
  )
  const removed = await record(
    "remove", "delete", "/streams/{stream}/schedules/{id}",
    admin.DELETE("/streams/{stream}/schedules/{id}", { params: { path: at } }),
  )
  const gone: true | undefined = removed.data?.removed
  await record(
    "remove", "delete", "/streams/{stream}/schedules/{id}",
    admin.DELETE("/streams/{stream}/schedules/{id}", { params: { path: at } }),
  )
  void [now, outcome, due, median, since, until, held, nextAt, listed, scheduled, kind, seq, type, step, delivered, gone, note, count]
  return answers
}

/** A schedule's PUT body names one timing: each alone compiles; two, a timezone without cron, or none do not. */
type ScheduleBody = paths["/streams/{stream}/schedules/{id}"]["put"]["requestBody"]["content"]["application/json"]
export const oneTimingEach: ScheduleBody[] = [
  { consumer: "c", at: "2030-01-01T00:00:00Z" },
  { consumer: "c", after: "1 hour", payload: { account: "acme" } },
  { consumer: "c", every: 60000, maxAttempts: 3 },
  { consumer: "c", cron: "0 9 * * *", timezone: "Europe/Berlin" },
  { consumer: "c", every: "1 hour", startAt: "2030-01-01T00:00:00Z", endAt: 1_900_000_000_000, times: 12, jitter: "1 minute" },
]
// @ts-expect-error a count belongs to every and cron alone
export const countedOnce: ScheduleBody = { consumer: "c", after: "1 hour", times: 2 }
// An unused @ts-expect-error fails the compile: each body below must really be refused.
// @ts-expect-error every and cron together
export const twoTimings: ScheduleBody = { consumer: "c", every: "1 minute", cron: "* * * * *" }
// @ts-expect-error a timezone belongs to cron alone
export const zonedEvery: ScheduleBody = { consumer: "c", every: "1 minute", timezone: "UTC" }
// @ts-expect-error no timing
export const untimed: ScheduleBody = { consumer: "c" }
`
