/** The ScheduleStream namespace binding (env.SCHEDULES), whatever class the Worker exports. */
export type StreamNamespace = Pick<DurableObjectNamespace, "idFromName"> & { get(id: DurableObjectId): unknown }

/**
 * The bindings slotwise reads from a Worker's env; name them so in wrangler.toml. The Worker's own
 * env (`Cloudflare.Env`, from `wrangler types`) is what jobs and consumers are handed.
 */
export interface SlotwiseEnv {
  /** The D1 database holding slotwise's tables (jobs_leases, schedule_streams): apply its migrations there. */
  DB: D1Database
  /** The ScheduleStream Durable Object namespace (`Schedules.durableObject`). */
  SCHEDULES: StreamNamespace
  /** The admin route's bearer token (a Worker secret); unset, admin is off. */
  ADMIN_TOKEN?: string
  /** Optional: the dashboard's absolute URL ("https://ops.example.com/admin"); alert notices link to their subject's page on it. */
  SLOTWISE_DASHBOARD_URL?: string
  /** Optional: an Analytics Engine dataset that gets one data point per job run and per settled batch of deliveries. */
  SLOTWISE_METRICS?: AnalyticsEngineDataset
}

/** A Worker's env as slotwise reads it (its bindings are checked where they are declared: wrangler.toml). */
export const slotwiseEnv = (env: unknown): SlotwiseEnv => env as SlotwiseEnv

/** The same env as jobs and consumers are handed it: the Worker's own type. */
export const workerEnv = (env: SlotwiseEnv): Cloudflare.Env => env as unknown as Cloudflare.Env
