import type { Hono } from "hono"
import { describeRoute, openAPIRouteHandler } from "hono-openapi"

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  400: "Invalid input (problem+json naming the field)",
  401: "Missing or wrong bearer token",
  404: "No such job, lease, stream or schedule",
  409: "Conflict with the current state",
  503: "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
}

/** One admin route's OpenAPI entry: a summary and the statuses it may answer (401 and 503 always). */
export const documented = (summary: string, ...statuses: number[]) =>
  describeRoute({
    summary,
    tags: ["admin"],
    security: [{ bearer: [] }],
    responses: Object.fromEntries(
      [200, 401, 503, ...statuses].sort().map((status) => [status, { description: STATUS_TEXT[status] ?? "" }]),
    ),
  })

/** GET /admin/openapi.json: built from the routes' descriptions and their zod validators. */
export const openapi = (admin: Hono<never, never, never>) =>
  openAPIRouteHandler(admin, {
    documentation: {
      info: { title: "slotwise admin", version: "1", description: "See and fix jobs, leases and schedules." },
      servers: [{ url: "/admin" }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
  })
