/**
 * The imports and declarations a block of the docs needs that its page shows elsewhere, by the block's key (its
 * page and its first line): scripts/check/doc-examples.ts compiles the block after its prelude. A key no block has
 * any more fails the check.
 */
export const PRELUDES: Record<string, string> = {
  // The billing slice's job file: its queries and the usage job are beside it in the example app.
  "docs/jobs.md: // src/slices/billing/jobs.ts": `import { Jobs } from "slotwise"
import { database } from "./db.ts"
import { closeTrialsDueAt } from "./queries.ts"`,
  "docs/jobs.md: // src/jobs.ts": `import { Jobs } from "slotwise"
import { closeExpiredTrials } from "./slices/billing/jobs.ts"
import type { Job } from "slotwise"
declare const rollUpUsage: Job`,
  'docs/schedules.md: import { Schedules } from "slotwise"': `declare const env: Env
declare const cursor: string | undefined`,
  'docs/schedules.md: const stream = Schedules.stream(env.SCHEDULES, "tenant-42", { retention: "30 days" })  // 0 keeps none, at most 366 days': `import { Schedules } from "slotwise"
declare const env: Env`,
  // A window, a count, backfill and a reason (docs/schedules.md): each on the page's stream of the first block.
  "docs/schedules.md: // Remind this user daily at 9 in their zone, for 14 days.": `import { Schedules } from "slotwise"
declare const env: Env
const stream = Schedules.stream(env.SCHEDULES, "tenant-42")`,
  "docs/schedules.md: // Charge on the 1st, 12 times.": `import { Schedules } from "slotwise"
declare const env: Env
const stream = Schedules.stream(env.SCHEDULES, "tenant-42")`,
  "docs/schedules.md: // Send each team's digest every hour, spread over ten minutes rather than all at :00.": `import { Schedules } from "slotwise"
declare const env: Env
declare const teamId: string`,
  "docs/schedules.md: // The consumer was down from 02:00 to 05:00 and dropped its work: run those three hours again.": `import { Schedules } from "slotwise"
declare const env: Env
const stream = Schedules.stream(env.SCHEDULES, "tenant-42")`,
  'docs/schedules.md: await stream.cancel("installments", { reason: "chargeback opened 2026-03-04, pause until it is resolved" })': `import { Schedules } from "slotwise"
declare const env: Env
const stream = Schedules.stream(env.SCHEDULES, "tenant-42")`,
  "docs/schedules.md: export const trialReminder = Schedules.consumer({": `import { Schedules } from "slotwise"
declare function alreadySent(env: Env, idempotencyKey: string): Promise<boolean>
declare function send(payload: unknown, options: { signal: AbortSignal }): Promise<void>`,
  "docs/schedules.md: export class ScheduleStream extends Schedules.durableObject({": `import { type Consumer, Schedules } from "slotwise"
declare const consumers: Consumer[]
declare const metrics: { count(name: string, labels: Record<string, unknown>): void }`,
  "docs/workflows-and-queues.md: // src/slices/statements/routes.ts, PUT /statements/:account: 06:00 UTC on the 1st, one instance a month": `import { Schedules } from "slotwise/portable"
import { monthlyStatement } from "./consumers.ts"
declare const c: { env: Env }
declare const account: string`,
  "docs/workflows-and-queues.md: // src/index.ts: the handlers": `import type { Hono } from "hono"
import { type Job, Jobs } from "slotwise"
declare const app: Hono<{ Bindings: Env }>
declare const jobs: Job[]`,
  // The example app's alert consumer reads its webhook from a secret the docs' Worker has not declared.
  "docs/admin.md: // src/slices/ops/consumers.ts: OPS_ALERT_WEBHOOK_URL is a secret (`wrangler secret put OPS_ALERT_WEBHOOK_URL`)": `declare global {
  interface Env {
    OPS_ALERT_WEBHOOK_URL: string
  }
}`,
  'docs/admin.md: import { metrics } from "@opentelemetry/api"': `import type { Hono } from "hono"
import type { Job } from "slotwise"
declare const app: Hono
declare const jobs: Job[]`,
  'docs/tracing.md: import { context, trace } from "@opentelemetry/api"': `import type { SpanExporter } from "@opentelemetry/sdk-trace"
import type { Hono } from "hono"
import type { Job } from "slotwise"
declare const exporter: SpanExporter
declare const app: Hono
declare const jobs: Job[]`,
}
