import type { Context, MiddlewareHandler } from "hono"
import { bodyLimit } from "hono/body-limit"
import { createMiddleware } from "hono/factory"
import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { problem, validate } from "../http/index.ts"
import { streamRpc } from "../schedules/client/stream-rpc.ts"
import type { ConsumerRegistry } from "../schedules/contract/consumer.ts"
import { checkDefinition } from "../schedules/contract/definition-check.ts"
import { LIST_DEFAULT } from "../schedules/contract/limits.ts"
import { isListed, streamsPage } from "../schedules/directory/stream-directory.ts"
import type { Reply, StreamRpc } from "../schedules/index.ts"
import type { AdminEnv } from "./access.ts"
import {
  backfillBody,
  cancelBody,
  eventsQuery,
  MAX_BODY_BYTES,
  scheduleBody,
  scheduleParam,
  schedulesQuery,
  streamHistoryQuery,
  streamParam,
  streamsQuery,
} from "./inputs.ts"
import { ADMIN_ROUTES } from "./routes.ts"

const STATUS = { invalid: 400, not_found: 404, conflict: 409, unavailable: 503 } as const
const TITLE = { invalid: "Invalid input", not_found: "Not found", conflict: "Conflict", unavailable: "Unavailable" }

/** A stream's reply as HTTP: its value as JSON, or its refusal as problem+json. */
function replyResponse<T>(c: Context, reply: Reply<T>, shape: (value: T) => object) {
  if (reply.ok) return c.json(shape(reply.value))
  const { code, message, field } = reply.error
  return problem(c, STATUS[code], TITLE[code], message, field === undefined ? {} : { field })
}

/** A schedule's page asks for this many of its newest events: all it keeps (EVENT_HISTORY_LIMIT), and its removed predecessors'. */
export const SCHEDULE_EVENTS = 50

type Action = "resume" | "trigger"
type StreamEnv = AdminEnv & { Variables: { rpc: StreamRpc } }

/** After the param check: the stream's object, or a 404 when the directory does not know it, so a GET never creates one. */
const listed = createMiddleware<StreamEnv>(async (c, next) => {
  const stream = c.req.param("stream") as string
  if (!(await isListed(c.env.DB, stream))) {
    return problem(c, 404, "Not found", `no stream "${stream}"`, { field: "stream" })
  }
  c.set("rpc", streamRpc(c.env.SCHEDULES, stream))
  await next()
})

/** A cancel's body is optional: one sent (with a JSON content type) is validated, none means no reason. */
const checkCancelBody = validate("json", cancelBody) as unknown as MiddlewareHandler
const cancelReason = createMiddleware<StreamEnv>(async (c, next) =>
  c.req.header("content-type") === undefined ? next() : checkCancelBody(c, next),
)
/** The reason a cancel's body gave (checked by cancelReason), if any. */
const reasonOf = (c: Context<StreamEnv>): unknown =>
  c.req.header("content-type") === undefined
    ? undefined
    : (c.req.valid as (target: "json") => { reason?: unknown })("json").reason

const action = (verb: Action) =>
  [
    ADMIN_ROUTES[verb].path,
    validate("param", scheduleParam),
    listed,
    async (c: Context<StreamEnv>) => {
      const { stream, id } = scheduleParam.parse(c.req.param())
      return replyResponse(c, await c.var.rpc[verb](stream, id), (schedule) => ({ schedule }))
    },
  ] as const

/** The streams in the D1 directory, and each stream's schedules and events; `consumers` are those a schedule may name. */
export const streamRoutes = (consumers: ConsumerRegistry) =>
  new Hono<StreamEnv>({ router: new TrieRouter() })
    .get(ADMIN_ROUTES.streams.path, validate("query", streamsQuery), async (c) => {
      const { limit = LIST_DEFAULT, cursor } = c.req.valid("query")
      return c.json(await streamsPage(c.env.DB, limit, cursor))
    })
    .get(ADMIN_ROUTES.summary.path, validate("param", streamParam), listed, async (c) => {
      const { stream } = c.req.valid("param")
      return replyResponse(c, await c.var.rpc.summary(stream), (summary) => summary)
    })
    .get(
      ADMIN_ROUTES.schedules.path,
      validate("param", streamParam),
      validate("query", schedulesQuery),
      listed,
      async (c) => {
        const { stream } = c.req.valid("param")
        return replyResponse(c, await c.var.rpc.list(stream, c.req.valid("query")), (page) => page)
      },
    )
    .get(ADMIN_ROUTES.schedule.path, validate("param", scheduleParam), listed, async (c) => {
      const { stream, id } = c.req.valid("param")
      const schedule = await c.var.rpc.get(stream, id)
      if (!schedule.ok) return replyResponse(c, schedule, () => ({}))
      const events = await c.var.rpc.events(stream, { scheduleId: id, limit: SCHEDULE_EVENTS })
      return replyResponse(c, events, (events) => ({ schedule: schedule.value, events }))
    })
    .put(
      ADMIN_ROUTES.putSchedule.path,
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) =>
          problem(c, 400, "Invalid input", `body is larger than ${MAX_BODY_BYTES} bytes`, { field: "body" }),
      }),
      validate("param", scheduleParam),
      validate("json", scheduleBody),
      async (c) => {
        const { stream, id } = c.req.valid("param")
        const body = c.req.valid("json")
        if (body.id !== undefined && body.id !== id) {
          return problem(c, 400, "Invalid input", `id in the body ("${body.id}") is not the path's "${id}"`, {
            field: "id",
          })
        }
        // Refused here, a bad definition never wakes (and so creates) a new stream's object; adminErrors answers 400.
        // The cron's witness day goes along, so the stream verifies that day instead of searching again.
        const { firesOn } = checkDefinition({ ...body, id }, Date.now(), (name) => consumers.get(name) !== undefined)
        const reply = await streamRpc(c.env.SCHEDULES, stream).upsert(stream, { ...body, id }, { firesOn })
        return replyResponse(c, reply, (schedule) => ({ schedule }))
      },
    )
    .post(ADMIN_ROUTES.cancel.path, validate("param", scheduleParam), cancelReason, listed, async (c) => {
      const { stream, id } = c.req.valid("param")
      const reason = reasonOf(c)
      const reply = await c.var.rpc.cancel(stream, id, reason === undefined ? {} : { reason: reason as string })
      return replyResponse(c, reply, (schedule) => ({ schedule }))
    })
    .post(
      ADMIN_ROUTES.backfill.path,
      validate("param", scheduleParam),
      validate("json", backfillBody),
      listed,
      async (c) => {
        const { stream, id } = c.req.valid("param")
        return replyResponse(c, await c.var.rpc.backfill(stream, id, c.req.valid("json")), (answer) => answer)
      },
    )
    .post(...action("resume"))
    .post(...action("trigger"))
    .delete(ADMIN_ROUTES.remove.path, validate("param", scheduleParam), listed, async (c) => {
      const { stream, id } = c.req.valid("param")
      return replyResponse(c, await c.var.rpc.remove(stream, id), (schedule) => ({ removed: true, schedule }))
    })
    .get(
      ADMIN_ROUTES.streamHistory.path,
      validate("param", streamParam),
      validate("query", streamHistoryQuery),
      listed,
      async (c) => {
        const { stream } = c.req.valid("param")
        const { range = "day" } = c.req.valid("query")
        return replyResponse(c, await c.var.rpc.history(stream, range), (history) => history)
      },
    )
    .get(
      ADMIN_ROUTES.events.path,
      validate("param", streamParam),
      validate("query", eventsQuery),
      listed,
      async (c) => {
        const { stream } = c.req.valid("param")
        return replyResponse(c, await c.var.rpc.events(stream, c.req.valid("query")), (events) => ({ events }))
      },
    )
