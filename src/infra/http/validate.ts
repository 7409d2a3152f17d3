import { sValidator } from "@hono/standard-validator"
import type { StandardSchemaV1 } from "@standard-schema/spec"
import type { ValidationTargets } from "hono"
import { en } from "zod/locales"
import { config } from "zod/mini"
import { invalid } from "./problem.ts"

// zod/mini ships without messages; a refusal's detail names the rule in English ("Too small: expected number to be >=1").
config(en())

/**
 * Standard Schema validation (zod/mini in slotwise) whose failure is a problem+json 400 naming the field.
 *
 * @example
 * ```ts
 * app.post("/usage", validate("json", z.object({ quantity: z.int() })), (c) => c.json(c.req.valid("json")))
 * ```
 */
export const validate = <Schema extends StandardSchemaV1, Target extends keyof ValidationTargets>(
  target: Target,
  schema: Schema,
) =>
  sValidator(target, schema, (result, c) => {
    if (!result.success) return invalid(c, result.error, target === "json" ? "body" : target)
  })
