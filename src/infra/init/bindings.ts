import type { SlotwiseEnv } from "../env.ts"
import { type ConfigObject, isObject } from "./edits.ts"

/** The names slotwise reads from env (SlotwiseEnv); fixed, so init refuses a Worker that uses one for something else. */
export const BINDING = {
  db: "DB",
  schedules: "SCHEDULES",
  adminToken: "ADMIN_TOKEN",
  metrics: "SLOTWISE_METRICS",
} as const satisfies Record<string, keyof SlotwiseEnv>

/** The class init declares; a Worker that binds SCHEDULES to a slotwise class of another name keeps its own. */
export const STREAM_CLASS = "ScheduleStream"

/** A binding the config declares: its name and what kind of binding it is, in wrangler's words. */
export interface Binding {
  name: string
  kind: string
}

// Lists of bindings in a wrangler config: where each list is, which field names a binding, and what it binds.
const LISTS: ReadonlyArray<readonly [path: readonly string[], field: "binding" | "name", kind: string]> = [
  [["d1_databases"], "binding", "a D1 database"],
  [["kv_namespaces"], "binding", "a KV namespace"],
  [["r2_buckets"], "binding", "an R2 bucket"],
  [["durable_objects", "bindings"], "name", "a Durable Object namespace"],
  [["services"], "binding", "a service binding"],
  [["queues", "producers"], "binding", "a Queue producer"],
  [["analytics_engine_datasets"], "binding", "an Analytics Engine dataset"],
  [["hyperdrive"], "binding", "a Hyperdrive configuration"],
  [["vectorize"], "binding", "a Vectorize index"],
  [["workflows"], "binding", "a Workflow"],
  [["dispatch_namespaces"], "binding", "a dispatch namespace"],
  [["mtls_certificates"], "binding", "an mTLS certificate"],
  [["secrets_store_secrets"], "binding", "a Secrets Store secret"],
  [["pipelines"], "binding", "a pipeline"],
  [["send_email"], "name", "a send_email binding"],
  [["ratelimits"], "name", "a rate limiter"],
  [["unsafe", "bindings"], "name", "an unsafe binding"],
]
// Single bindings: an object whose `binding` names it.
const SINGLES: ReadonlyArray<readonly [key: string, kind: string]> = [
  ["ai", "the Workers AI binding"],
  ["browser", "the Browser Rendering binding"],
  ["images", "the Images binding"],
  ["assets", "the static assets binding"],
  ["version_metadata", "the version metadata binding"],
]

const at = (config: ConfigObject, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), config)

/** Every binding name the config's top level declares (environments have their own), with its kind. */
export function bindingsOf(config: ConfigObject): Binding[] {
  const found: Binding[] = []
  for (const [path, field, kind] of LISTS) {
    const list = at(config, path)
    if (!Array.isArray(list)) continue
    for (const item of list) {
      if (isObject(item) && typeof item[field] === "string") found.push({ name: item[field], kind })
    }
  }
  for (const [key, kind] of SINGLES) {
    const single = config[key]
    if (isObject(single) && typeof single.binding === "string") found.push({ name: single.binding, kind })
  }
  const vars = config.vars
  if (isObject(vars)) for (const name of Object.keys(vars)) found.push({ name, kind: "a plain var ([vars])" })
  return found
}
