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
  /** Statuses besides 200, 401 and 503 (which every route behind the bearer-token check may answer). */
  statuses?: readonly number[]
  /** The JSON body's schema in components.schemas, for the routes that take one. */
  body?: "ScheduleBody" | "CancelBody" | "BackfillBody" | "PauseBody"
}

/**
 * Every admin route by name: its method, path and other statuses (what each means: scripts/openapi/route-docs.ts, for
 * the OpenAPI document only, so the Worker and the dashboard carry none of that text).
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
  },
  jobs: {
    method: "GET",
    path: "/jobs",
  },
  runJob: {
    method: "POST",
    path: "/jobs/:name/run",
    statuses: [400, 404, 409],
  },
  jobHistory: {
    method: "GET",
    path: "/jobs/:name/history",
    statuses: [400, 404],
  },
  pauseJob: {
    method: "POST",
    path: "/jobs/:name/pause",
    body: "PauseBody",
    statuses: [400, 404],
  },
  resumeJob: {
    method: "POST",
    path: "/jobs/:name/resume",
    statuses: [400, 404, 409],
  },
  leases: {
    method: "GET",
    path: "/leases",
  },
  releaseLease: {
    method: "DELETE",
    path: "/leases/:name",
    statuses: [400, 404, 409],
  },
  streams: {
    method: "GET",
    path: "/streams",
    statuses: [400],
  },
  summary: {
    method: "GET",
    path: "/streams/:stream/summary",
    statuses: [400, 404],
  },
  schedules: {
    method: "GET",
    path: "/streams/:stream/schedules",
    statuses: [400, 404],
  },
  schedule: {
    method: "GET",
    path: "/streams/:stream/schedules/:id",
    statuses: [400, 404],
  },
  putSchedule: {
    method: "PUT",
    path: "/streams/:stream/schedules/:id",
    body: "ScheduleBody",
    statuses: [400],
  },
  cancel: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/cancel",
    body: "CancelBody",
    statuses: [400, 404, 409],
  },
  backfill: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/backfill",
    body: "BackfillBody",
    statuses: [400, 404, 409],
  },
  resume: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/resume",
    statuses: [400, 404, 409],
  },
  trigger: {
    method: "POST",
    path: "/streams/:stream/schedules/:id/trigger",
    statuses: [400, 404, 409],
  },
  remove: {
    method: "DELETE",
    path: "/streams/:stream/schedules/:id",
    statuses: [400, 404, 409],
  },
  streamHistory: {
    method: "GET",
    path: "/streams/:stream/history",
    statuses: [400, 404],
  },
  events: {
    method: "GET",
    path: "/streams/:stream/events",
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
