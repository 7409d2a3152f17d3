import { readFileSync } from "node:fs"
import path from "node:path"
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin"
import { configDefaults, defineConfig } from "vitest/config"

export default defineConfig(async () => {
  const root = import.meta.dirname
  const migrations = await readD1Migrations(path.join(root, "migrations"))
  return {
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
        },
      }),
    ],
    // The example app imports the engine as `slotwise`, `slotwise/admin`, …: tsconfig.json's paths name the entry files.
    resolve: { tsconfigPaths: true },
    test: {
      include: ["test/**/*.test.ts"],
      // The browser test drives wrangler dev and Chromium from Node: its own config (test/browser/vitest.config.ts);
      // so does the container profile's suite (test/node/vitest.config.ts).
      exclude: [...configDefaults.exclude, "test/browser/**", "test/adopter/**", "test/node/**"],
      setupFiles: ["./test/support/apply-migrations.ts"],
      // Local HTTP receivers for the webhook tests that must go through workerd's real fetch.
      globalSetup: ["./test/support/webhook-receivers.ts"],
      testTimeout: 30_000,
    },
  }
})
