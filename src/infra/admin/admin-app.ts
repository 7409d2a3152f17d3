// Every app in the Worker is Hono over its TrieRouter alone (the router the default SmartRouter falls back to, with
// the same strict matching): with no `Hono` from "hono" in the bundle, SmartRouter and RegExpRouter leave the hot
// module (about 1.8 KiB gzip; docs/benchmarks.md). hono/tiny's PatternRouter is smaller but ignores a trailing slash.
import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { streamsRequired } from "../http/streams-required.ts"
import type { Job } from "../jobs/index.ts"
import { consumerRegistry } from "../schedules/contract/consumer.ts"
import type { Consumer } from "../schedules/index.ts"
import { type AdminEnv, adminOn, noStore, requireBearerToken } from "./access.ts"
import { adminErrors } from "./admin-errors.ts"
import { dashboard } from "./dashboard/route.ts"
import { healthRoutes } from "./health-routes.ts"
import { jobRoutes } from "./job-routes.ts"
import { leaseRoutes } from "./lease-routes.ts"
import { openapi } from "./openapi.ts"
import { streamRoutes } from "./stream-routes.ts"

/** What a Worker hands its admin: the jobs it shows and runs, the consumers a schedule may name. */
export interface AdminOptions {
  /** The Worker's jobs (`Jobs.registry`'s list): admin shows them, their leases and health, and runs one on demand. */
  jobs: readonly Job[]
  /** The consumers a schedule PUT through admin may name: the same list given to `Schedules.durableObject`. */
  consumers: readonly Consumer[]
}

/**
 * The admin sub-app behind `Authorization: Bearer <ADMIN_TOKEN>` (off without one): JSON routes to
 * see and fix jobs, leases and schedules, and the dashboard at its root. Mount it where you like: every
 * error it raises itself is answered as `application/problem+json`, whatever the app around it does.
 *
 * @example
 * ```ts
 * import { admin } from "slotwise/admin"
 *
 * const app = new Hono<{ Bindings: Env }>().route("/admin", admin({ jobs, consumers }))
 * ```
 */
export function admin({ jobs, consumers }: AdminOptions): Hono<AdminEnv> {
  const known = consumerRegistry(consumers)
  const api = new Hono<AdminEnv>({ router: new TrieRouter() })
    .use(noStore)
    .use(adminOn)
    // The page is a shell that asks for the token, so it is the one route before the bearer-token check.
    .get("/", dashboard)
    .use(requireBearerToken)
    .route("/", healthRoutes(jobs))
    .route("/", jobRoutes(jobs))
    .route("/", leaseRoutes(jobs))
    // Stream routes need a Durable Object per stream: 501 where there are none (a Node container).
    .use("/streams/*", streamsRequired)
    .route("/", streamRoutes(known))
    .get("/openapi.json", openapi)
  // Its own errors are its own answers: an adopter's app may have no onError of its own (README mounts it bare).
  api.onError(adminErrors)
  return api
}
