import type { Context } from "hono"
import { MAX_PAYLOAD_BYTES, NAME } from "../schedules/index.ts"
import { ADMIN_ROUTES, type AdminRoute } from "./routes.ts"

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  400: "Invalid input (problem+json naming the field)",
  401: "Missing or wrong bearer token",
  404: "No such job, lease, stream or schedule",
  409: "Conflict with the current state",
  503: "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
}

const PATH_PARAMS: Record<string, { description: string; pattern: string }> = {
  name: { description: "a job's name", pattern: "^[a-z0-9][a-z0-9._-]{0,99}$" },
  stream: { description: "a stream's name", pattern: NAME.source },
  id: { description: "a schedule's id", pattern: NAME.source },
}

const duration = { oneOf: [{ type: "number" }, { type: "string", maxLength: 64 }], description: 'ms or "10 minutes"' }

/** The PUT body: a schedule definition without its id; exactly one of at, after, every or cron. */
const SCHEDULE_BODY = {
  type: "object",
  additionalProperties: false,
  required: ["consumer"],
  properties: {
    id: { type: "string", description: "the path's id, if given" },
    consumer: { type: "string", maxLength: 128 },
    payload: { description: `any JSON, at most ${MAX_PAYLOAD_BYTES} bytes and 64 levels deep` },
    maxAttempts: { type: "integer", minimum: 1, maximum: 1000 },
    at: {
      oneOf: [{ type: "number" }, { type: "string", maxLength: 64 }],
      description: "epoch ms or ISO 8601 with offset",
    },
    after: duration,
    every: duration,
    cron: { type: "string", maxLength: 256, description: "5 fields" },
    timezone: { type: "string", maxLength: 64, description: "IANA name, for cron (default UTC)" },
  },
}

/** One route's OpenAPI operation: its summary, parameters, body and the statuses it may answer. */
function operation(route: AdminRoute) {
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => name as string)
  const parameters = [
    ...inPath.map((name) => ({
      name,
      in: "path",
      required: true,
      description: PATH_PARAMS[name]?.description,
      schema: { type: "string", pattern: PATH_PARAMS[name]?.pattern },
    })),
    ...Object.entries(route.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    })),
  ]
  const statuses = [...new Set([200, 401, 503, ...(route.statuses ?? [])])].sort()
  return {
    summary: route.summary,
    tags: ["admin"],
    security: [{ bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: `#/components/schemas/${route.body}` } } },
          },
        }
      : {}),
    responses: Object.fromEntries(statuses.map((status) => [status, { description: STATUS_TEXT[status] ?? "" }])),
  }
}

/** The OpenAPI 3.1 document of the admin routes, for admin mounted at `base` ("/admin", "/ops"...). */
export function openapiDocument(base: string) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {}
  for (const route of Object.values(ADMIN_ROUTES)) {
    const path = route.path.replace(/:(\w+)/g, "{$1}")
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) }
  }
  return {
    openapi: "3.1.0",
    info: { title: "slotwise admin", version: "1", description: "See and fix jobs, leases and schedules." },
    servers: [{ url: base }],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { ScheduleBody: SCHEDULE_BODY },
    },
  }
}

/** GET /openapi.json: the document, its server the path admin answers under in this request. */
export const openapi = (c: Context) => {
  const base = new URL(c.req.url).pathname.replace(/\/openapi\.json$/, "")
  return c.json(openapiDocument(base || "/"))
}
