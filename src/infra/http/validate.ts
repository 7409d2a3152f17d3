import { zValidator } from "@hono/zod-validator"
import type { ValidationTargets } from "hono"
import type { ZodType } from "zod"
import { invalid } from "./problem.ts"

/** zod validation whose failure is a problem+json 400 naming the field. */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result, c) => {
    if (!result.success) return invalid(c, result.error as never, target === "json" ? "body" : "query")
  })
