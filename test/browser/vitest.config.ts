import path from "node:path"
import { defineConfig } from "vitest/config"

const root = path.resolve(import.meta.dirname, "../..")

/** Node, not workerd: the dashboard in a real browser against `wrangler dev`, and `npm start`'s own scripts. */
export default defineConfig({
  root,
  test: {
    include: ["test/browser/**/*.browser.test.ts", "scripts/dev/**/*.test.ts", "scripts/dashboard/**/*.test.ts"],
    environment: "node",
    // One wrangler dev and one Chromium at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    // In CI each suite also writes a JSON report; .ci/run sums the three into its closing line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: path.join(root, "results/vitest-browser.json") },
  },
})
