import { Hono } from "hono"
import type { Job } from "../jobs/index.ts"
import { dashboard } from "./dashboard/index.ts"
import { type AdminEnv, adminOn, door } from "./door.ts"
import { jobRoutes } from "./jobs.ts"
import { leaseRoutes } from "./leases.ts"
import { openapi } from "./openapi.ts"
import { streamRoutes } from "./streams.ts"

/** The admin sub-app, mounted at /admin: the declared jobs are the ones it shows and runs. */
export function admin(jobs: readonly Job[]) {
  const api = new Hono<AdminEnv>()
    .use(adminOn)
    // The page is a shell that asks for the token, so it is the one route before the door.
    .get("/", dashboard)
    .use(door)
    .route("/", jobRoutes(jobs))
    .route("/", leaseRoutes(jobs))
    .route("/streams", streamRoutes)
  api.get("/openapi.json", openapi(api as never))
  return api
}

export { type AdminEnv, adminToken } from "./door.ts"
