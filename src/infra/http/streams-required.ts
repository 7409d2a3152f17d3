import { createMiddleware } from "hono/factory"
import { problem } from "./problem.ts"

/** True when the env carries the SCHEDULES Durable Object binding: a Worker. A Node container has none. */
export const hasStreams = (env: unknown): boolean =>
  typeof env === "object" && env !== null && (env as { SCHEDULES?: unknown }).SCHEDULES != null

/**
 * Answers 501 before the route runs where there are no durable schedule streams (a Node container:
 * a stream needs one single-threaded owner, a Durable Object, and Node replicas have no such
 * placement), so a route that would write a row and then a stream writes nothing.
 *
 * @example
 * ```ts
 * app.post("/billing/usage", streamsRequired, validate("json", usage), recordUsageAndReport)
 * ```
 */
export const streamsRequired = createMiddleware(async (c, next) => {
  if (!hasStreams(c.env)) {
    return problem(
      c,
      501,
      "Not implemented",
      "durable schedule streams run only on the Worker profile (one Durable Object per stream); this runtime has none",
    )
  }
  await next()
})
