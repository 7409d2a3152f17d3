import type { Context } from "hono"
import { hasStreams } from "../http/streams-required.ts"
import { loadOpenApiDocument } from "./browser-only.ts"

type Operation = { responses: Record<string, unknown> }
type Paths = Record<string, Record<string, Operation>>

const UNIMPLEMENTED = {
  description: "This runtime has no durable schedule streams (the container profile)",
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
}

/**
 * The admin's OpenAPI document served at `base` ("/admin", "/ops"...). Without streams (the container
 * profile) every stream route answers 501 before it runs, and the document says so.
 *
 * @example
 * ```ts
 * (await servedDocument("/admin", false)).paths["/streams"].get.responses[501] // the Problem answer
 * ```
 */
export async function servedDocument(base: string, streams: boolean) {
  const DOCUMENT = await loadOpenApiDocument()
  const paths = DOCUMENT.paths as Paths
  const served = streams
    ? paths
    : Object.fromEntries(
        Object.entries(paths).map(([path, operations]) => [
          path,
          path.startsWith("/streams")
            ? Object.fromEntries(
                Object.entries(operations).map(([method, op]) => [
                  method,
                  { ...op, responses: { ...op.responses, 501: UNIMPLEMENTED } },
                ]),
              )
            : operations,
        ]),
      )
  return { ...DOCUMENT, servers: [{ url: base }], paths: served }
}

/** GET /openapi.json: the document, its server the path admin answers under in this request. */
export const openapi = async (c: Context) => {
  const base = new URL(c.req.url).pathname.replace(/\/openapi\.json$/, "")
  return c.json(await servedDocument(base || "/", hasStreams(c.env)))
}
