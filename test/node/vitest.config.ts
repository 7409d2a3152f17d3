import path from "node:path"
import { defineConfig } from "vitest/config"

const root = path.resolve(import.meta.dirname, "../..")

/** Node, not workerd: the container profile (src/main.ts) on libSQL, the claim on libSQL and Postgres, replicas. */
export default defineConfig({
  root,
  // The example app imports the engine as `slotwise/node`, …: tsconfig.json's paths name the entry files.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["test/node/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
