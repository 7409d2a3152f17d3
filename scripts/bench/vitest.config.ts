import path from "node:path"
import { cloudflareTest } from "@cloudflare/vitest-plugin"
import { defineConfig } from "vitest/config"

const root = path.resolve(import.meta.dirname, "../..")

/** Benchmarks run in the same workerd as the tests, but never as part of `npm test`. */
export default defineConfig({
  root,
  plugins: [
    cloudflareTest({
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: { bindings: { SLOTWISE_TEST_CLOCK: "1" } },
    }),
  ],
  resolve: {
    alias: [{ find: /^\.\.\/\.\.\/consumers\.ts$/, replacement: path.join(root, "scripts/bench/consumers.ts") }],
  },
  test: {
    include: ["scripts/bench/**/*.bench.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
})
