import { readFileSync } from "node:fs"
import path from "node:path"
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin"
import { defineConfig } from "vitest/config"

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
      setupFiles: ["./test/support/apply-migrations.ts"],
      testTimeout: 30_000,
    },
  }
})
