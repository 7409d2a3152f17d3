import * as z from "zod/mini"
import type { ConfigObject } from "./edits.ts"
import { ConfigSyntaxError } from "./errors.ts"

const names = z.optional(z.array(z.string()))

/** The parts of a wrangler config init reads; every other key passes through untouched. */
const WranglerConfig = z.looseObject({
  name: z.optional(z.string()),
  main: z.optional(z.string()),
  minify: z.optional(z.boolean()),
  triggers: z.optional(z.looseObject({ crons: names })),
  d1_databases: z.optional(
    z.array(
      z.looseObject({
        binding: z.string(),
        database_name: z.optional(z.string()),
        database_id: z.optional(z.string()),
        migrations_dir: z.optional(z.string()),
      }),
    ),
  ),
  durable_objects: z.optional(
    z.looseObject({
      bindings: z.optional(
        z.array(z.looseObject({ name: z.string(), class_name: z.string(), script_name: z.optional(z.string()) })),
      ),
    }),
  ),
  migrations: z.optional(
    z.array(
      z.looseObject({
        tag: z.string(),
        new_classes: names,
        new_sqlite_classes: names,
        renamed_classes: z.optional(z.array(z.looseObject({ from: z.string(), to: z.string() }))),
      }),
    ),
  ),
  env: z.optional(z.record(z.string(), z.unknown())),
})

export type WranglerConfig = z.infer<typeof WranglerConfig>
export type D1Binding = NonNullable<WranglerConfig["d1_databases"]>[number]

/** The config's parts init reads, checked; throws ConfigSyntaxError naming the field that is not what wrangler takes. */
export function wranglerConfig(file: string, value: ConfigObject): WranglerConfig {
  const parsed = z.safeParse(WranglerConfig, value)
  if (parsed.success) return parsed.data
  const [issue] = parsed.error.issues
  const field = (issue?.path ?? []).map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
  throw new ConfigSyntaxError(`${file}: ${field.join("").replace(/^\./, "")}: ${issue?.message ?? "invalid"}`)
}
