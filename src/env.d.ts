/**
 * Secrets and local flags the Worker reads, which `wrangler types` does not see: a secret listed as required in
 * wrangler.toml would block every deploy that has not set it, and admin may stay off.
 */
interface WorkerSecrets {
  /** The admin route's bearer token (`wrangler secret put ADMIN_TOKEN`; locally .dev.vars). Unset: admin is off. */
  ADMIN_TOKEN?: string
  /** "1" when running locally (npm start's .dev.vars, the tests): billing webhooks may then be http://127.0.0.1. */
  SLOTWISE_LOCAL?: string
  /** Where ops.alert-webhook POSTs alert notices (`wrangler secret put OPS_ALERT_WEBHOOK_URL`); unset, it logs them. */
  OPS_ALERT_WEBHOOK_URL?: string
}

interface Env extends WorkerSecrets {}

declare namespace Cloudflare {
  interface Env extends WorkerSecrets {}
}
