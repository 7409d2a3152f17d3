import type { Context } from "hono"
import type { ContentfulStatusCode } from "hono/utils/http-status"

/** RFC 9457 problem details; every error response of slotwise has this shape. */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  [extension: string]: unknown
}

export function problem(c: Context, status: ContentfulStatusCode, title: string, detail: string, extra = {}) {
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
