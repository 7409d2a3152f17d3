import type { Context } from "hono"
import type { ContentfulStatusCode } from "hono/utils/http-status"

// The example's own error answers, shaped as admin's are: slotwise exports no generic HTTP helpers, so an adopter writes these.

/** RFC 9457 problem details, with `field` naming the input at fault. */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  field?: string
}

/**
 * An `application/problem+json` answer.
 *
 * @example
 * ```ts
 * return problem(c, 404, "Not found", `account ${account} has no webhook`)
 * ```
 */
export function problem(
  c: Context,
  status: ContentfulStatusCode,
  title: string,
  detail: string,
  extra: { field?: string } = {},
) {
  const body: Problem = { type: `https://slotwise.dev/problems/${slug(title)}`, title, status, detail, ...extra }
  return c.body(JSON.stringify(body), status, { "content-type": "application/problem+json" })
}

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-")
