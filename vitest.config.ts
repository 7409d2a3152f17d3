import { readFileSync } from "node:fs"
import path from "node:path"
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin"
import { configDefaults, defineConfig } from "vitest/config"

/**
 * `npm test`: three projects in one run, one after another (sequence.groupOrder), each reporting even when
 * another fails; `--project workers|node|browser` runs one.
 */
export default defineConfig(async () => {
  const root = import.meta.dirname
  const migrations = await readD1Migrations(path.join(root, "migrations"))
  // The example app imports the engine as `slotwise`, `slotwise/admin`, …: tsconfig.json's paths name the entry files.
  const resolve = { tsconfigPaths: true }
  return {
    test: {
      // The page imports the dashboard's bundle, which git does not hold: built once before any project runs.
      globalSetup: ["./scripts/generate/global-setup.ts"],
      // browser: wrangler dev and Chromium stop in their own time.
      teardownTimeout: 60_000,
      // In CI the run also writes one JSON report; .ci/run prints its totals as the closing line.
      reporters: process.env.CI ? ["default", "json"] : ["default"],
      outputFile: { json: path.join(root, "results/vitest.json") },
      projects: [
        {
          plugins: [
            cloudflareTest({
              // The example app with scripted test consumers, built through the same public calls (test/support/worker.ts).
              main: "./test/support/worker.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // Test-only bindings: the migrations to apply, and wrangler.toml's text for drift checks.
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  // The engine's own migrations (the package's), which the app's folder must hold unchanged.
                  ENGINE_MIGRATIONS: await readD1Migrations(path.join(root, "src/infra/migrations")),
                  TEST_WRANGLER_TOML: readFileSync(path.join(root, "wrangler.toml"), "utf8"),
                  // test/sim: run one simulator seed, as long as asked (SIM_SEED=7 SIM_STEPS=200000 npx vitest run test/sim).
                  SIM_SEED: process.env.SIM_SEED ?? "",
                  SIM_STEPS: process.env.SIM_STEPS ?? "",
                  // The admin route's secret; tests that need it off pass an env without it.
                  ADMIN_TOKEN: "test-admin-token",
                  // Running locally, as npm start does: billing webhooks may be http://127.0.0.1.
                  SLOTWISE_LOCAL: "1",
                },
                // Each due job in its own invocation: the heartbeat's queue (JOBS), consumed by the test Worker one
                // message per invocation as docs/workflows-and-queues.md's config says; HELD_JOBS has no consumer, so what is sent stays sent.
                queueProducers: {
                  JOBS: { queueName: "slotwise-jobs" },
                  HELD_JOBS: { queueName: "slotwise-jobs-held" },
                },
                queueConsumers: { "slotwise-jobs": { maxBatchSize: 1, maxBatchTimeout: 1 } },
                // test/compat: a D1 database with the previous release's migrations only, and 0.1.0's ScheduleStream.
                d1Databases: { PREVIOUS_SCHEMA_DB: "slotwise-previous-schema" },
                durableObjects: { SCHEDULES_010: { className: "ScheduleStream010", useSQLite: true } },
              },
            }),
          ],
          resolve,
          test: {
            // Inside workerd, with real D1 and Durable Objects.
            name: "workers",
            include: ["test/**/*.test.ts"],
            exclude: [...configDefaults.exclude, "test/browser/**", "test/adopter/**", "test/node/**"],
            setupFiles: ["./test/support/apply-migrations.ts"],
            // Local HTTP receivers for the webhook tests that must go through workerd's real fetch.
            globalSetup: ["./test/support/webhook-receivers.ts"],
            testTimeout: 30_000,
            sequence: { groupOrder: 0 },
          },
        },
        {
          resolve,
          test: {
            // Node, not workerd: the container profile (src/main.ts) on libSQL, the claim on libSQL and a real PostgreSQL server, replicas.
            name: "node",
            // test/node/exit-status.test.ts runs this project on its fixtures alone, in a child vitest.
            include: process.env.SLOTWISE_EXIT_STATUS_FIXTURES
              ? ["test/node/exit-status/*.fixture.ts"]
              : ["test/node/**/*.test.ts"],
            environment: "node",
            // One real PostgreSQL server for the run (from npm), unless SLOTWISE_TEST_POSTGRES_URL names one; a folder
            // of the run's own, where the package is packed once for the files that install it.
            globalSetup: ["./test/node/postgres-server.ts", "./test/node/packed-package.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            sequence: { groupOrder: 1 },
          },
        },
        {
          test: {
            // Node, not workerd: the dashboard in a real browser against `wrangler dev`, and `npm start`'s own scripts.
            name: "browser",
            include: [
              "test/browser/**/*.browser.test.ts",
              "scripts/dev/**/*.test.ts",
              "scripts/dashboard/**/*.test.ts",
            ],
            environment: "node",
            // One wrangler dev and one Chromium at a time.
            fileParallelism: false,
            testTimeout: 60_000,
            hookTimeout: 240_000,
            sequence: { groupOrder: 2 },
          },
        },
      ],
    },
  }
})
