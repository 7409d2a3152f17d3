// The Env `wrangler types` writes for the Worker the docs describe (docs/add-to-a-worker.md's wrangler.toml, with
// docs/workflows-and-queues.md's Queue and Workflow): what the Worker blocks of the docs are compiled against.
interface Env {
  DB: D1Database
  SCHEDULES: DurableObjectNamespace
  ADMIN_TOKEN: string
  SLOTWISE_METRICS: AnalyticsEngineDataset
  JOBS: Queue
  STATEMENTS: Workflow
}
declare namespace Cloudflare {
  interface Env extends globalThis.Env {}
}
