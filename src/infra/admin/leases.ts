import { Hono } from "hono"
import { database } from "../db/index.ts"
import { problem, validate } from "../http/index.ts"
import { forceRelease, type Job, listLeases } from "../jobs/index.ts"
import { logLine } from "../log.ts"
import type { AdminEnv } from "./access.ts"
import { leaseParam } from "./inputs.ts"
import { leaseView } from "./jobs.ts"
import { ADMIN_ROUTES } from "./routes.ts"

/** GET /leases and DELETE /leases/:name: see who holds what, and free a stuck lease. */
export const leaseRoutes = (jobs: readonly Job[]) =>
  new Hono<AdminEnv>()
    .get(ADMIN_ROUTES.leases.path, async (c) => {
      const now = Date.now()
      const declared = new Set(jobs.map((job) => job.name))
      const leases = await listLeases(database(c.env.DB))
      return c.json({
        now,
        leases: leases.map((lease) => ({
          name: lease.name,
          declared: declared.has(lease.name),
          ...leaseView(lease, now),
        })),
      })
    })
    .delete(ADMIN_ROUTES.releaseLease.path, validate("param", leaseParam), async (c) => {
      const { name } = c.req.valid("param")
      const before = await forceRelease(database(c.env.DB), name)
      if (!before) return problem(c, 404, "Not found", `job "${name}" has no lease`, { field: "name" })
      const now = Date.now()
      const released = before.holder !== null || before.leaseUntil !== null
      logLine("warn", "lease released by admin", {
        job: name,
        holder: before.holder,
        leaseUntil: before.leaseUntil,
        lastSlot: before.lastSlot,
        released,
      })
      return c.json({ released, lease: leaseView({ ...before, leaseUntil: null, holder: null }, now) })
    })
