import { applyD1Migrations, env } from "cloudflare:test"

// Setup files run outside per-file storage isolation; applying is idempotent.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
