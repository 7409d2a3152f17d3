import { redactUrlSecrets } from "../../url-secrets.ts"
import type { DeliveryResult } from "./core.ts"

/**
 * A delivery's result as settlement may write it: a fresh, well-formed copy, with the secrets of any
 * URL in its reason hidden (url-secrets.ts), since a reason reaches events, `last_error`, the log and the
 * dashboard. Anything else (not
 * an object, an unknown status, a reason that is not a string, a lateness that is not a number,
 * fields that throw when read) becomes a retry whose reason says it was malformed, so that one
 * consumer's bad outcome fails its own row and never the transaction of the answers settled with it.
 *
 * @example
 * ```ts
 * normalised({ status: "retry", reason: 42n })
 * // { status: "retry", reason: "malformed outcome: retry with a reason of type bigint" }
 * ```
 */
export function normalised(result: unknown): DeliveryResult {
  try {
    if (typeof result !== "object" || result === null) return malformed(`a value of type ${kind(result)}`)
    const { status } = result as { status?: unknown }
    if (status === "delivered") {
      const { lateByMs } = result as { lateByMs?: unknown }
      if (typeof lateByMs === "number" && Number.isFinite(lateByMs) && lateByMs >= 0) return { status, lateByMs }
      return malformed(`delivered with a lateness of type ${kind(lateByMs)}`)
    }
    if (status === "retry" || status === "terminal") {
      const { reason } = result as { reason?: unknown }
      if (typeof reason === "string") return { status, reason: redactUrlSecrets(reason) }
      return malformed(`${status} with a reason of type ${kind(reason)}`)
    }
    return malformed(typeof status === "string" ? `an unknown status "${status.slice(0, 40)}"` : "no status")
  } catch {
    // A getter or a proxy that throws: its fields cannot be read at all.
    return malformed("fields that could not be read")
  }
}

const kind = (value: unknown) => (value === null ? "null" : typeof value)
const malformed = (what: string): DeliveryResult => ({
  status: "retry",
  reason: redactUrlSecrets(`malformed outcome: ${what}`),
})
