import { describeError } from "../../log.ts"
import { type Outcome, retry, terminal } from "../contract/consumer.ts"

/** How a Workflow binding's refused `create` is answered: the instance exists, or retry, or stop. */
export type WorkflowRefusal = { kind: "exists" } | { kind: "refused"; outcome: Outcome }

// Cloudflare's and workerd's local Workflows both say `instance.already_exists` / "... already exists".
const EXISTS = /already[ _]exists/i
// Load, limits and outages pass: checked first, since "rate limit exceeded" must not read as a request too large.
const TRANSIENT =
  /rate[ _-]?limit|too many|timed? ?out|timeout|overload|unavailable|internal|network|connection|try again/i
// The request itself is wrong (id, params, size): the same create fails on every later attempt.
const INVALID = /invalid|too large|exceeds|not serializ|could not be serialized|DataCloneError|\(body\)/i

/**
 * Classifies what a Workflow binding's `create` threw, from its message (Cloudflare gives no typed
 * error): an id that exists is success, a wrong request is terminal, anything else (limits, outages,
 * a Workflow not deployed yet in a rolling deploy) retries after the durable backoff.
 */
export function workflowRefusal(error: unknown): WorkflowRefusal {
  const text = describeError(error)
  if (EXISTS.test(text)) return { kind: "exists" }
  const reason = `creating the Workflow instance failed: ${text}`
  if (!TRANSIENT.test(text) && INVALID.test(text)) return { kind: "refused", outcome: terminal(reason) }
  return { kind: "refused", outcome: retry(reason) }
}
