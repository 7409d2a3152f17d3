import path from "node:path"
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin"
import { defineConfig } from "vitest/config"

const root = path.resolve(import.meta.dirname, "../..")

/**
 * The benchmark (`npm run bench`, scripts/bench/run.ts): the same workerd as the tests, never
 * part of `npm test`. Its own Worker (scripts/bench/wrangler.toml) holds slotwise's stream and
 * an Agents SDK Agent.
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"))
  return {
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: path.join(root, "scripts/bench/wrangler.toml") },
        miniflare: {
          bindings: {
            BENCH_MIGRATIONS: migrations,
            BENCH_SMOKE: process.env.BENCH_SMOKE ?? "",
            BENCH_PROFILE_HOOK: process.env.BENCH_PROFILE_HOOK ?? "",
            BENCH_PROFILE_N: process.env.BENCH_PROFILE_N ?? "",
            BENCH_PROFILE_TICKS: process.env.BENCH_PROFILE_TICKS ?? "",
            // The jobs workload's sizes, comma-separated (default 1,10,100,1000,10000).
            BENCH_JOBS_N: process.env.BENCH_JOBS_N ?? "",
          },
        },
      }),
    ],
    test: {
      include: ["scripts/bench/**/*.bench.ts"],

      testTimeout: 600_000,
      hookTimeout: 600_000,
      disableConsoleIntercept: true,
    },
  }
})
