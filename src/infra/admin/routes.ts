/**
 * The one table of admin routes, relative to where admin is mounted: the server registers these
 * paths, /openapi.json documents them and the dashboard builds its requests from them. Plain data
 * (no server imports), so the dashboard's browser bundle can import it.
 */

export type Method = "GET" | "POST" | "PUT" | "DELETE"

export interface AdminRoute {
  method: Method
  /** Hono's form: `/streams/:stream/schedules/:id`. */
  path: string
  summary: string
  /** What each query parameter means; the route's validator checks them. */
  query?: Readonly<Record<string, string>>
  /** Statuses besides 200, 401 and 503 (which every route behind the bearer-token check may answer). */
  statuses?: readonly number[]
  /** The JSON body's schema in components.schemas, for the routes that take one. */
  body?: "ScheduleBody"
}

const PAGE = "page size, 1..500 (default 50)"

/**
 * Every admin route by name: its method, path, summary, query parameters and other statuses.
 *
 * @example
 * ```ts
 * const { method } = ADMIN_ROUTES.cancel // "POST"
 * await fetch(`/admin${adminPath("cancel", { stream: "tenant-42", id: "trial-ending" })}`, { method, headers })
 * ```
 */
export const ADMIN_ROUTES = {
  health: {
    method: "GET",
    path: "/health",
    summary:
      "Whether the heartbeat fires, what the watchdog's last run found overdue, and how many schedules are retrying",
  },
  jobs: {
    method: "GET",
    path: "/jobs",
    summary: "Every declared job with its next slot, its lease, its last run and its newest slots (runs and gaps)",
  },
  runJob: {
    method: "POST",
    path: "/jobs/:name/run",
    summary: "Runs a job now for the current minute's slot (an exclusive job still claims it)",
    statuses: [400, 404, 409],
  },
  leases: {
    method: "GET",
    path: "/leases",
    summary: "Every lease row, declared job or not",
  },
  releaseLease: {
    method: "DELETE",
    path: "/leases/:name",
    summary:
      "Releases a lease; last_slot stays, so its slot is still refused. A lease still within its run's timeout is 409 unless forced; the run's outcome is still recorded",
    query: { force: "true releases a lease still held by a run within its timeout" },
    statuses: [400, 404, 409],
  },
  streams: {
    method: "GET",
    path: "/streams",
    summary: "The streams in the directory, by name",
    query: { limit: PAGE, cursor: "the previous page's cursor: the last stream name it showed" },
    statuses: [400],
  },
  summary: {
    method: "GET",
    path: "/streams/:stream/summary",
    summary: "A stream's schedules counted by state, how many retry, and the overdue one due longest ago",
    statuses: [400, 404],
  },
  schedules: {
    method: "GET",
    path: "/streams/:stream/schedules",
    summary: "A stream's schedules by id, optionally in one state",
    query: {
      state: "scheduled, completed, cancelled or failed",
      limit: PAGE,
      cursor: "the previous page's cursor: the last schedule id it showed",
    },
    statuses: [400, 404],
  },
  schedule: {
    method: "GET",
    path: "/streams/:stream/schedules/:id",
    summary: "A schedule and its newest events (each schedule keeps its newest 20)",
    statuses: [400, 404],
  },
  putSchedule: {
    method: "PUT",
    path: "/streams/:stream/schedules/:id",
    summary: "Creates or replaces a schedule (the same rules as the client's upsert)",
    body: "ScheduleBody",
    statuses: [400],
  },
  cancel: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/cancel",
    summary: "Cancels a schedule: nothing more is delivered until it is resumed",
    statuses: [400, 404, 409],
  },
  resume: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/resume",
    summary: "Resumes a cancelled or failed schedule from its next due time",
    statuses: [400, 404, 409],
  },
  trigger: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/trigger",
    summary: "Delivers the current occurrence now; the cadence is unchanged",
    statuses: [400, 404, 409],
  },
  remove: {
    method: "DELETE",
    path: "/streams/:stream/schedules/:id",
    summary: "Removes a finished or cancelled schedule now (a scheduled one: cancel it first)",
    statuses: [400, 404, 409],
  },
  events: {
    method: "GET",
    path: "/streams/:stream/events",
    summary: "A stream's newest events",
    query: {
      limit: PAGE,
      before: "an event seq: only older events",
      scheduleId: "only this schedule's events",
    },
    statuses: [400, 404],
  },
} as const satisfies Record<string, AdminRoute>

export type RouteName = keyof typeof ADMIN_ROUTES

/** The parameters a path names: `/streams/:stream/schedules/:id` needs `{ stream, id }`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>

export type ParamsOf<R extends RouteName> = PathParams<(typeof ADMIN_ROUTES)[R]["path"]>

/**
 * A route's path with its parameters encoded and the query's given values appended.
 *
 * @example
 * ```ts
 * adminPath("schedules", { stream: "tenant-42" }, { state: "failed" }) // "/streams/tenant-42/schedules?state=failed"
 * ```
 */
export function adminPath<R extends RouteName>(
  route: R,
  params: ParamsOf<R>,
  query: Readonly<Record<string, string | number | undefined | null>> = {},
): string {
  const values = params as Record<string, string>
  const path = ADMIN_ROUTES[route].path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ""))
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value))
  }
  const text = search.toString()
  return text ? `${path}?${text}` : path
}
