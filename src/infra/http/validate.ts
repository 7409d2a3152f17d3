import { sValidator } from "@hono/standard-validator"
import type { StandardSchemaV1 } from "@standard-schema/spec"
import type { ValidationTargets } from "hono"
import { config } from "zod/mini"
import { invalid, problem } from "./problem.ts"
import { refusal } from "./refusal.ts"

// zod/mini ships without messages; a refusal's detail says what the field must be ("must be at least 1").
config({ localeError: refusal })

/**
 * Hono middleware that validates one part of a request (`json`, `query`, `param`, ...) with a Standard
 * Schema (zod/mini in slotwise); a failure is a problem+json 400 whose `field` names the first invalid
 * input, and a body not sent as JSON is refused as such. The handler reads the result with `c.req.valid(target)`.
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
    if (!result.success) return invalid(c, result.error, target === "json" ? "body" : target)
  })

/** The media types Hono parses as JSON. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i
