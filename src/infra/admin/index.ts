/**
 * `slotwise/admin`: the admin sub-app a Worker (or the container) mounts, and the bearer-token door
 * it sits behind, for the application's own routes too.
 */

export { type AdminEnv, requireAdmin } from "./access.ts"
export { type AdminOptions, admin } from "./admin-app.ts"
