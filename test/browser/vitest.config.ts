import path from "node:path"
import { defineConfig } from "vitest/config"

const root = path.resolve(import.meta.dirname, "../..")

/** The dashboard in a real browser against `wrangler dev`: runs in Node, not workerd. */
export default defineConfig({
  root,
  test: {
    include: ["test/browser/**/*.browser.test.ts"],
    environment: "node",
    // One wrangler dev and one Chromium at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
  },
})
