import type { ScheduleDefinition } from "./definition.ts"
import { NAME, NAME_RULE } from "./limits.ts"

/** The input a ScheduleDefinitionError or a refused reply names: a definition's field, or a call's option. */
export type ScheduleField =
  | keyof ScheduleDefinition
  | "stream"
  | "timing"
  | "definition"
  | "limit"
  | "state"
  | "cursor"
  | "before"
  | "retention"
  | "range"
  | "reason"
  | "from"
  | "to"

/** A definition or an option a stream refused, naming the field: nothing was written. */
export class ScheduleDefinitionError extends Error {
  /** Always "ScheduleDefinitionError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "ScheduleDefinitionError"
  constructor(
    /** The input at fault. */
    readonly field: ScheduleField,
    problem: string,
  ) {
    super(`${field} ${problem}`)
  }
}

export const fail = (field: ScheduleField, problem: string): never => {
  throw new ScheduleDefinitionError(field, problem)
}

export function assertName(field: "id" | "stream", value: unknown): string {
  if (typeof value !== "string" || !NAME.test(value)) fail(field, NAME_RULE)
  return value as string
}
