import type { ValidationTargets } from "hono"
import { validator } from "hono-openapi"
import type { ZodType } from "zod"
import { invalid } from "./problem.ts"

/** zod validation whose failure is a problem+json 400 naming the field; the schema also feeds /admin/openapi.json. */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  validator(target, schema, (result, c) => {
    if (!result.success) return invalid(c, result.error, target === "json" ? "body" : target)
  })
