import path from "node:path"
import { defineConfig } from "vitest/config"

const root = path.resolve(import.meta.dirname, "../..")

/** Node, not workerd: the container profile (src/main.ts) on libSQL, the claim on libSQL and a real PostgreSQL server, replicas. */
export default defineConfig({
  root,
  // The example app imports the engine as `slotwise/node`, …: tsconfig.json's paths name the entry files.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["test/node/**/*.test.ts"],
    environment: "node",
    // One real PostgreSQL server for the run (from npm), unless SLOTWISE_TEST_POSTGRES_URL names one.
    globalSetup: ["test/node/postgres-server.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // In CI each suite also writes a JSON report; .ci/run sums the three into its closing line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: path.join(root, "results/vitest-node.json") },
  },
})
