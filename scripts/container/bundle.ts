import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
/** Where `npm run build:container` writes the bundle the image and `npm run start:node` run. */
export const CONTAINER_BUNDLE = path.join(ROOT, "dist-container/main.js")

/**
 * The packages the bundle imports from node_modules at run time instead of holding a copy: the database
 * drivers (native code, loaded only for their URL), and `@opentelemetry/api`, whose global tracer
 * provider is kept per copy and version: a copy inside the bundle would not see the SDK the
 * application registers through its own, and would record nothing.
 */
export const CONTAINER_EXTERNALS = ["@libsql/client", "pg", "@opentelemetry/api"] as const

/**
 * Bundles the container profile (src/main.ts) into one ES module for Node 22; the generated modules
 * (scripts/generate) must be written first.
 *
 * @example
 * ```ts
 * await bundleContainer() // dist-container/main.js
 * ```
 */
export async function bundleContainer(outfile = CONTAINER_BUNDLE): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, "src/main.ts")],
    bundle: true,
    platform: "node",
    target: "node22",
    format: "esm",
    external: [...CONTAINER_EXTERNALS],
    logLevel: "warning",
    outfile,
  })
}
