import { bearerAuth } from "hono/bearer-auth"
import { every } from "hono/combine"
import { createMiddleware } from "hono/factory"
import { timingSafeEqual } from "hono/utils/buffer"
import type { SlotwiseEnv } from "../env.ts"
import { problem } from "../http/index.ts"
import { ADMIN_TOKEN_RULE, ADMIN_TOKEN_SYNTAX } from "./token.ts"

/** The Hono env of admin's app and of `requireAdmin`'s routes: the bindings slotwise reads (ADMIN_TOKEN, DB, SCHEDULES). */
export type AdminEnv = { Bindings: SlotwiseEnv }

/** The admin secret, or undefined when none is configured (admin is then off, never open). */
export const adminToken = (env: SlotwiseEnv): string | undefined =>
  typeof env.ADMIN_TOKEN === "string" && env.ADMIN_TOKEN.length > 0 ? env.ADMIN_TOKEN : undefined

const REALM = "slotwise admin"

/** Every admin answer, refusals included: they hold operational data fetched with a bearer token. */
export const noStore = createMiddleware<AdminEnv>(async (c, next) => {
  await next()
  c.header("cache-control", "no-store")
})

/** 503 while no token is configured: admin is off. */
export const adminOn = createMiddleware<AdminEnv>(async (c, next) => {
  if (adminToken(c.env) === undefined) {
    return problem(
      c,
      503,
      "Admin is off",
      "no ADMIN_TOKEN is configured: `wrangler secret put ADMIN_TOKEN` turns it on",
    )
  }
  await next()
})

const unauthorized = (detail: string) => ({
  message: (c: Parameters<typeof problem>[0]) => problem(c, 401, "Unauthorized", detail),
  wwwAuthenticateHeader: `Bearer realm="${REALM}"`,
})

const bearer = bearerAuth<AdminEnv>({
  realm: REALM,
  verifyToken: async (token, c) => timingSafeEqual(adminToken(c.env) ?? "", token),
  noAuthenticationHeader: unauthorized("send Authorization: Bearer <ADMIN_TOKEN>"),
  // A malformed header is a wrong token, not a bad request: 401 either way.
  invalidAuthenticationHeader: unauthorized("the Authorization header is not `Bearer <token>`"),
  invalidToken: unauthorized("the bearer token is not this Worker's ADMIN_TOKEN"),
})

/**
 * `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time (hashed, so length leaks nothing).
 * A configured token no bearer header can carry is a 503 naming the rule, never a 401 to the right token.
 */
export const requireBearerToken = createMiddleware<AdminEnv>(async (c, next) => {
  if (!ADMIN_TOKEN_SYNTAX.test(adminToken(c.env) ?? "")) {
    return problem(
      c,
      503,
      "Admin token unusable",
      `ADMIN_TOKEN ${ADMIN_TOKEN_RULE}; no Authorization header can carry this one: set another with \`wrangler secret put ADMIN_TOKEN\` (locally in .dev.vars)`,
    )
  }
  return bearer(c, next)
})

/**
 * Admin access for a Worker's own routes: 503 while no ADMIN_TOKEN is configured, 401 without it.
 *
 * @example
 * ```ts
 * app.use("/billing/*", requireAdmin)
 * ```
 */
export const requireAdmin = every(adminOn, requireBearerToken)
