import type { core } from "zod/mini"

/**
 * What a refused input must be, as validate's 400 says it after the field (`quantity: must be <= 1000000`).
 * zod/mini ships no messages, and its English locale would cost a Worker 1.1 KiB gzip of its 100 KiB
 * budget for issue kinds slotwise's inputs never meet; a schema's own message still comes first.
 *
 * @example
 * ```ts
 * config({ localeError: refusal })   // zod/mini, once per isolate (validate.ts)
 * ```
 */
export function refusal(issue: core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be of type ${issue.expected}`
    case "invalid_value":
      return `must be one of ${issue.values.join(", ")}`
    case "too_big":
      return `must be ${issue.inclusive ? "<=" : "<"} ${issue.maximum}${issue.origin === "string" ? " characters" : ""}`
    case "too_small":
      return `must be ${issue.inclusive ? ">=" : ">"} ${issue.minimum}${issue.origin === "string" ? " characters" : ""}`
    case "invalid_format":
      return issue.format === "regex" ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`
    case "unrecognized_keys":
      return "is not a known field"
    default:
      return "is invalid"
  }
}
