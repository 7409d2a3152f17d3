import { describeValue } from "../../describe-value.ts"
import { DEFINITION_FIELDS } from "./definition.ts"
import { assertName, fail } from "./definition-error.ts"
import { MAX_ATTEMPTS_LIMIT } from "./limits.ts"
import { encodePayload } from "./payload.ts"
import { validateRules } from "./rules.ts"
import type { ScheduleSpec } from "./spec.ts"
import { validateTiming } from "./timing.ts"

/**
 * Validates a definition before anything is written; throws ScheduleDefinitionError naming
 * the field. `knownConsumer` answers whether a consumer of that name is declared.
 */
export function validateDefinition(
  input: unknown,
  now: number,
  knownConsumer: (name: string) => boolean,
): ScheduleSpec {
  return checkDefinition(input, now, knownConsumer).spec
}

/** A validated definition, and for a cron the day it was found to name within 10 years (its witness). */
export interface CheckedDefinition {
  spec: ScheduleSpec
  firesOn: number | undefined
}

/**
 * validateDefinition, answering also the cron's witness day; given a `firesOn` from an earlier check,
 * it verifies that one day instead of searching, and searches when the day does not verify.
 */
export function checkDefinition(
  input: unknown,
  now: number,
  knownConsumer: (name: string) => boolean,
  firesOn?: unknown,
): CheckedDefinition {
  if (typeof input !== "object" || input === null || Array.isArray(input)) fail("definition", "must be an object")
  const def = input as Record<string, unknown>
  // A misspelt option (maxAttempt, timeZone) would otherwise be dropped without a word.
  const unknown = Object.keys(def).find((key) => def[key] !== undefined && !DEFINITION_FIELDS.has(key))
  if (unknown !== undefined) fail("definition", `has an unknown field "${unknown}"`)
  const id = assertName("id", def.id)
  if (typeof def.consumer !== "string" || !knownConsumer(def.consumer)) {
    fail("consumer", `${describeValue(def.consumer)} is not among the consumers given to \`Schedules.durableObject\``)
  }
  const { timing, day } = validateTiming(def, now, firesOn)
  const payload = encodePayload(def.payload)
  let maxAttempts: number | null = null
  if (def.maxAttempts !== undefined && def.maxAttempts !== null) {
    const n = def.maxAttempts
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > MAX_ATTEMPTS_LIMIT) {
      fail("maxAttempts", `must be a positive integer up to ${MAX_ATTEMPTS_LIMIT}`)
    }
    maxAttempts = n as number
  }
  const rules = validateRules(def, timing, now)
  return { spec: { id, consumer: def.consumer as string, payload, maxAttempts, timing, ...rules }, firesOn: day }
}
