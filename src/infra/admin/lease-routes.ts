import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { database } from "../db/index.ts"
import { problem, validate } from "../http/index.ts"
import type { Job } from "../jobs/index.ts"
import { forceRelease, listLeases } from "../jobs/protocol/lease.ts"
import { logLine } from "../log.ts"
import type { AdminEnv } from "./access.ts"
import { leaseParam, releaseQuery } from "./inputs.ts"
import { leaseView } from "./job-routes.ts"
import { ADMIN_ROUTES } from "./routes.ts"

/** GET /leases and DELETE /leases/:name: see who holds what, and free a stuck lease. */
export const leaseRoutes = (jobs: readonly Job[]) =>
  new Hono<AdminEnv>({ router: new TrieRouter() })
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
    .delete(
      ADMIN_ROUTES.releaseLease.path,
      validate("param", leaseParam),
      validate("query", releaseQuery),
      async (c) => {
        const { name } = c.req.valid("param")
        const force = c.req.valid("query").force === "true"
        const now = Date.now()
        // Unforced, a lease the database's clock says is held (a run within its timeout) is left as it is, in the same batch.
        const { before, ended } = await forceRelease(database(c.env.DB), name, force)
        if (!before) return problem(c, 404, "Not found", `job "${name}" has no lease`, { field: "name" })
        if (!ended) {
          return problem(
            c,
            409,
            "Conflict",
            `job "${name}" is held by run ${before.holder} until ${new Date(before.leaseUntil as number).toISOString()}, ` +
              "still within its timeout; pass ?force=true to release it anyway (that run's outcome is still recorded)",
            { field: "force" },
          )
        }
        const released = before.holder !== null || before.leaseUntil !== null
        logLine("warn", "lease released by admin", {
          job: name,
          holder: before.holder,
          leaseUntil: before.leaseUntil,
          lastSlot: before.lastSlot,
          released,
          forced: force,
        })
        return c.json({ released, lease: leaseView({ ...before, leaseUntil: null, holder: null }, now) })
      },
    )
