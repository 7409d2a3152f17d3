import path from "node:path"
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin"
import { defineConfig } from "vitest/config"

/** The adopter's tests in workerd, against its own wrangler.toml and its own migrations folder. */
export default defineConfig(async () => {
  const root = import.meta.dirname
  return {
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations(path.join(root, "migrations")),
            ADMIN_TOKEN: "adopter-token",
          },
        },
      }),
    ],
    test: { include: ["test/**/*.test.ts"], testTimeout: 30_000 },
  }
})
