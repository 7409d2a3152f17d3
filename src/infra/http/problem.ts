import type { Context } from "hono"
import type { ContentfulStatusCode } from "hono/utils/http-status"

/** RFC 9457 problem details: every error answer of slotwise's admin, and of routes that use `problem`, has this shape. */
export interface Problem {
  /** A URI naming the kind of problem, made from the title: `https://slotwise.dev/problems/not-found`. */
  type: string
  /** The kind of problem in a few words, the same for every answer of that kind ("Invalid input"). */
  title: string
  /** The HTTP status, repeated in the body. */
  status: number
  /** What went wrong this time, for a person: `quantity: must be a positive integer`. */
  detail: string
  /** The one input at fault, when there is one (`quantity`, `body`, `stream`). */
  field?: string
  /** Any other member a route adds. */
  [extension: string]: unknown
}

/**
 * An `application/problem+json` answer (RFC 9457) with `status`, as slotwise's admin answers its own
 * errors; `extra` adds members, `field` naming the input at fault.
 *
 * @example
 * ```ts
 * app.get("/accounts/:id", (c) => problem(c, 404, "Not found", `no account ${c.req.param("id")}`, { field: "id" }))
 * ```
 */
export function problem(
  c: Context,
  status: ContentfulStatusCode,
  title: string,
  detail: string,
  extra: { field?: string; [extension: string]: unknown } = {},
): Response {
  const body: Problem = { type: `https://slotwise.dev/problems/${slug(title)}`, title, status, detail, ...extra }
  return c.body(JSON.stringify(body), status, { "content-type": "application/problem+json" })
}

/** A Standard Schema issue (zod's included): a message and the path to the field. */
export interface Issue {
  message: string
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined
  /** zod's unrecognized_keys issue: the unknown fields, which the path does not name. */
  keys?: readonly string[]
}

/** A 400 naming the first invalid field, e.g. `quantity: must be a positive integer`. */
export function invalid(c: Context, issues: readonly Issue[], where: string) {
  const issue = issues[0]
  const path = [...(issue?.path ?? []).map((key) => (typeof key === "object" ? key.key : key)), ...(issue?.keys ?? [])]
  const field = path.length ? path.map(String).join(".") : where
  return problem(c, 400, "Invalid input", `${field}: ${issue?.message ?? "is invalid"}`, { field })
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-")
