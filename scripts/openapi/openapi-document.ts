/**
 * The OpenAPI document of the admin routes, built from the one route table, the validators the
 * handlers run and the answers' schemas. Run at build time only (document.ts writes what it builds into
 * src/infra/admin/openapi.generated.ts, which admin/openapi.ts serves): its zod JSON Schema conversion would
 * not fit the Worker's bundle budget, and the package ships none of this folder.
 */
import * as z from "zod/mini"
import { ANSWERS, components } from "../../src/infra/admin/answers.ts"
import {
  backfillBody,
  cancelBody,
  eventsQuery,
  jobHistoryQuery,
  jobParam,
  leaseParam,
  pauseBody,
  releaseQuery,
  scheduleBody,
  scheduleParam,
  schedulesQuery,
  streamHistoryQuery,
  streamParam,
  streamsQuery,
} from "../../src/infra/admin/inputs.ts"
import { ADMIN_ROUTES, type AdminRoute, type RouteName } from "../../src/infra/admin/routes.ts"
import { ROUTE_DOCS, type RouteDoc } from "./route-docs.ts"

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  400: "Invalid input (the problem's field names it)",
  401: "Missing or wrong bearer token",
  404: "No such job, lease, stream or schedule",
  409: "Conflict with the current state",
  503: "Admin is off (no ADMIN_TOKEN) or the stream is unavailable",
}

const PATH_PARAMS: Record<string, string> = { name: "a job's name", stream: "a stream's name", id: "a schedule's id" }

type Input = z.ZodMiniObject
/** The validators each route's handler runs: the document's parameters and body are their JSON Schemas. */
const INPUTS: { [R in RouteName]?: { param?: Input; query?: Input; json?: Input } } = {
  runJob: { param: jobParam },
  jobHistory: { param: jobParam, query: jobHistoryQuery },
  pauseJob: { param: jobParam, json: pauseBody },
  resumeJob: { param: jobParam },
  releaseLease: { param: leaseParam, query: releaseQuery },
  streams: { query: streamsQuery },
  summary: { param: streamParam },
  schedules: { param: streamParam, query: schedulesQuery },
  schedule: { param: scheduleParam },
  putSchedule: { param: scheduleParam, json: scheduleBody },
  cancel: { param: scheduleParam, json: cancelBody },
  backfill: { param: scheduleParam, json: backfillBody },
  resume: { param: scheduleParam },
  trigger: { param: scheduleParam },
  remove: { param: scheduleParam },
  streamHistory: { param: streamParam, query: streamHistoryQuery },
  events: { param: streamParam, query: eventsQuery },
}

type JsonSchema = Record<string, unknown>

/** A schema as a part of the document: its own `$schema` and `$id` belong to a standalone file. */
function embedded({ $schema: _, $id: __, ...schema }: JsonSchema): JsonSchema {
  return schema
}

/** Any JSON value, typed (a recursive schema types as TS2502, "references itself", in generated clients). */
const JSON_TYPES = {
  type: ["object", "array", "string", "number", "boolean", "null"],
  items: true,
  additionalProperties: true,
}

/**
 * What a request's validator accepts, as JSON Schema (its input side: a query's limit arrives as text). A field
 * the validator leaves to the stream (z.unknown) without a type of its own is any JSON value, said so.
 */
const accepted = (schema: Input) =>
  embedded(
    z.toJSONSchema(schema, {
      io: "input",
      override: ({ zodSchema, jsonSchema }) => {
        if (zodSchema._zod.def.type === "unknown" && !("type" in jsonSchema)) Object.assign(jsonSchema, JSON_TYPES)
      },
    }) as JsonSchema,
  )

function parameters(doc: RouteDoc, inputs: (typeof INPUTS)[RouteName]) {
  const where = [
    ["path", inputs?.param],
    ["query", inputs?.query],
  ] as const
  return where.flatMap(([place, schema]) => {
    if (!schema) return []
    const { properties = {}, required = [] } = accepted(schema) as { properties?: JsonSchema; required?: string[] }
    return Object.entries(properties).map(([name, property]) => ({
      name,
      in: place,
      required: place === "path" || required.includes(name),
      description: place === "path" ? PATH_PARAMS[name] : doc.query?.[name],
      schema: property,
    }))
  })
}

/** The one tag every operation carries, defined in the document's `tags` as OpenAPI tools expect. */
const TAG = { name: "admin", description: "slotwise's admin: jobs, leases, schedule streams and health" }

const TIMINGS = ["at", "after", "every", "cron"] as const
/** What only a recurring timing takes. */
const RECURRING_ONLY = ["startAt", "endAt", "times"]

/**
 * A schedule's PUT body as one of four shapes, one per timing, each refusing the other timings (and
 * `timezone` but for cron): the validator's fields, so a generated client cannot send two timings.
 */
function oneTiming(body: JsonSchema): JsonSchema {
  const { properties, required, ...rest } = body as { properties: JsonSchema; required: string[] }
  const refused = (field: string, timing: string) =>
    field === "timezone"
      ? timing !== "cron"
      : RECURRING_ONLY.includes(field)
        ? timing === "at" || timing === "after"
        : field !== timing && (TIMINGS as readonly string[]).includes(field)
  return {
    oneOf: TIMINGS.map((timing) => ({
      ...rest,
      title: `ScheduleBody (${timing})`,
      properties: Object.fromEntries(
        Object.entries(properties).map(([field, schema]) => [field, refused(field, timing) ? false : schema]),
      ),
      required: [...required, timing],
    })),
  }
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const idOf = (schema: z.core.$ZodType) => components.get(schema)?.id as string

/** One route's OpenAPI operation: its summary, parameters, body and every answer it may give, with its schema. */
function operation(name: RouteName) {
  const route: AdminRoute = ADMIN_ROUTES[name]
  const inputs = INPUTS[name]
  const doc = ROUTE_DOCS[name]
  const params = parameters(doc, inputs)
  const errors = [...new Set([401, 503, ...(route.statuses ?? [])])].sort((a, b) => a - b)
  return {
    operationId: name,
    summary: doc.summary,
    tags: [TAG.name],
    security: [{ bearer: [] }],
    ...(params.length ? { parameters: params } : {}),
    ...(route.body
      ? {
          requestBody: {
            // A cancel's body (its reason) is optional.
            required: route.body !== "CancelBody",
            content: { "application/json": { schema: ref(route.body) } },
          },
        }
      : {}),
    responses: {
      200: { description: STATUS_TEXT[200], content: { "application/json": { schema: ref(idOf(ANSWERS[name])) } } },
      ...Object.fromEntries(
        errors.map((status) => [
          status,
          {
            description: STATUS_TEXT[status] ?? "",
            content: { "application/problem+json": { schema: ref("Problem") } },
          },
        ]),
      ),
    },
  }
}

/**
 * The OpenAPI 3.1 document of the admin routes, without its server (the path admin is mounted at,
 * known per request) and as a Worker answers it (the container's 501s are added where it is served);
 * `version` is the package's.
 *
 * @example
 * ```ts
 * openapiDocument("0.1.0").paths["/jobs"].get.responses[200]
 * // { description: "OK", content: { "application/json": { schema: { $ref: "#/components/schemas/JobsAnswer" } } } }
 * ```
 */
export function openapiDocument(version: string) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {}
  for (const name of Object.keys(ADMIN_ROUTES) as RouteName[]) {
    const route = ADMIN_ROUTES[name]
    const path = route.path.replace(/:(\w+)/g, "{$1}")
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(name) }
  }
  const answers = z.toJSONSchema(components, { uri: (id) => `#/components/schemas/${id}` }).schemas
  const schemas = Object.fromEntries(
    Object.entries(answers).map(([id, schema]) => [id, embedded(schema as JsonSchema)]),
  )
  return {
    openapi: "3.1.0",
    info: { title: "slotwise admin", version, description: "See and fix jobs, leases and schedules." },
    tags: [TAG],
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      // Any JSON, unconstrained: a recursive union types as TS2502 ("references itself") in generated clients.
      schemas: {
        ...schemas,
        Json: { ...JSON_TYPES, description: "any JSON value" },
        ScheduleBody: oneTiming(accepted(scheduleBody)),
        PauseBody: accepted(pauseBody),
        CancelBody: accepted(cancelBody),
        BackfillBody: accepted(backfillBody),
      },
    },
  }
}
