import type { Context } from "hono"
import { problem } from "../http/index.ts"
import type { Reply } from "../schedules/index.ts"

const STATUS = { invalid: 400, not_found: 404, conflict: 409, unavailable: 503 } as const
const TITLE = { invalid: "Invalid input", not_found: "Not found", conflict: "Conflict", unavailable: "Unavailable" }

/** A stream's reply as HTTP: its value as JSON, or its refusal as problem+json. */
export function replyResponse<T>(c: Context, reply: Reply<T>, shape: (value: T) => object) {
  if (reply.ok) return c.json(shape(reply.value))
  const { code, message, field } = reply.error
  return problem(c, STATUS[code], TITLE[code], message, field === undefined ? {} : { field })
}
