/**
 * `slotwise/admin`: the admin sub-app a Worker (or the container) mounts, the bearer-token door it
 * sits behind, and the same door and problem+json answers for the application's own routes.
 */

export { type Problem, problem, validate } from "../http/index.ts"
export { type AdminEnv, requireAdmin } from "./access.ts"
export { type AdminOptions, admin } from "./admin-app.ts"
