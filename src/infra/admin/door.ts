import { bearerAuth } from "hono/bearer-auth"
import { createMiddleware } from "hono/factory"
import { timingSafeEqual } from "hono/utils/buffer"
import { problem } from "../http/index.ts"

export type AdminEnv = { Bindings: Env }

/** The admin secret, or undefined when none is configured (admin is then off, never open). */
export const adminToken = (env: Env): string | undefined =>
  typeof env.ADMIN_TOKEN === "string" && env.ADMIN_TOKEN.length > 0 ? env.ADMIN_TOKEN : undefined

const REALM = "slotwise admin"

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

/** `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time (hashed, so length leaks nothing). */
export const door = bearerAuth<AdminEnv>({
  realm: REALM,
  verifyToken: async (token, c) => timingSafeEqual(adminToken(c.env) ?? "", token),
  noAuthenticationHeader: unauthorized("send Authorization: Bearer <ADMIN_TOKEN>"),
  // A malformed header is a wrong token, not a bad request: 401 either way.
  invalidAuthenticationHeader: unauthorized("the Authorization header is not `Bearer <token>`"),
  invalidToken: unauthorized("the bearer token is not this Worker's ADMIN_TOKEN"),
})
