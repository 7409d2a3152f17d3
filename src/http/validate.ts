import { sValidator } from "@hono/standard-validator"
import type { StandardSchemaV1 } from "@standard-schema/spec"
import type { ValidationTargets } from "hono"
import { en } from "zod/locales"
import { config } from "zod/mini"
import { problem } from "./problem.ts"

// zod/mini ships without messages; a refusal's detail names the rule in English.
config(en())

/** The media types Hono parses as JSON. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i

/**
 * Standard Schema validation (zod/mini here) whose failure is a problem+json 400 naming the first invalid field.
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
    // Hono reads a body sent as anything but JSON as {}: say so, not that a field is missing.
    if (target === "json" && !JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      return problem(c, 400, "Invalid input", "body must be JSON, sent as Content-Type: application/json", {
        field: "body",
      })
    }
    if (result.success) return
    const issue = result.error[0]
    const path = (issue?.path ?? []).map((key) => String(typeof key === "object" ? key.key : key))
    // zod's unrecognized_keys issue names the unknown fields in `keys`, not in its path.
    const keys = (issue as { keys?: readonly string[] } | undefined)?.keys ?? []
    const named = [...path, ...keys]
    const field = named.length ? named.join(".") : target === "json" ? "body" : target
    return problem(c, 400, "Invalid input", `${field}: ${issue?.message ?? "is invalid"}`, { field })
  })
