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
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Test-only bindings: the migrations to apply, and wrangler.toml's text for drift checks.
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_WRANGLER_TOML: readFileSync(path.join(root, "wrangler.toml"), "utf8"),
            // Lets tests drive a stream with an injected clock; production ignores injected times.
            SLOTWISE_TEST_CLOCK: "1",
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
    resolve: {
      // Under test, the streams' consumer list (src/consumers.ts, imported by stream.ts)
      // also carries scripted test consumers.
      alias: [{ find: /^\.\.\/\.\.\/consumers\.ts$/, replacement: path.join(root, "test/support/consumers.ts") }],
    },
    test: {
      include: ["test/**/*.test.ts"],
      // The browser test drives wrangler dev and Chromium from Node: its own config (test/browser/vitest.config.ts).
      exclude: [...configDefaults.exclude, "test/browser/**"],
      setupFiles: ["./test/support/apply-migrations.ts"],
      testTimeout: 30_000,
    },
  }
})
