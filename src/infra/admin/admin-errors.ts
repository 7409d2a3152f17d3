import type { ErrorHandler } from "hono"
import { HTTPException } from "hono/http-exception"
import { problem } from "../http/index.ts"
import { describeError, logLine } from "../log.ts"
import { ScheduleDefinitionError } from "../schedules/contract/definition-error.ts"
import type { AdminEnv } from "./access.ts"

/**
 * admin's own error answers, set on its sub-app so they hold wherever it is mounted (a parent's
 * onError never sees them): a definition the stream would refuse is a 400 naming its field, a
 * body Hono could not parse a 400 naming `body`, anything else a logged 500; all problem+json.
 */
export const adminErrors: ErrorHandler<AdminEnv> = (error, c) => {
  if (error instanceof ScheduleDefinitionError) {
    return problem(c, 400, "Invalid input", error.message, { field: error.field })
  }
  if (error instanceof HTTPException) {
    // Middleware that built its own answer (the bearer-token check) keeps it; the rest (malformed JSON) become problems.
    if (error.res) return error.getResponse()
    const invalid = error.status === 400
    return problem(
      c,
      error.status,
      invalid ? "Invalid input" : "Error",
      error.message,
      invalid ? { field: "body" } : {},
    )
  }
  logLine("error", "admin request failed", { path: new URL(c.req.url).pathname, error: describeError(error) })
  return problem(c, 500, "Internal error", "the admin request failed; see the Worker's logs")
}
