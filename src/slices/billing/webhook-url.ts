import { privateAddressKind } from "./private-address.ts"

/** The longest webhook url the route takes. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048

/** Where the usage webhook may POST: https only; http://127.0.0.1 too when running locally (SLOTWISE_LOCAL=1). */
export const WEBHOOK_URL_RULE = "must be https:// (http://127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)"

/** The one address a Worker running locally (SLOTWISE_LOCAL=1) may POST to, over http or https. */
const LOCAL_HOST = "127.0.0.1"

/**
 * Why `url` is not a webhook this Worker may POST to, or undefined when it is: it must be
 * https:// and must not name a loopback, private, link-local or unique-local address literally
 * (a DNS name is not resolved here). Running locally (SLOTWISE_LOCAL=1), 127.0.0.1 is allowed.
 * @example webhookUrlProblem("https://10.0.0.7/hook", env) // "must not name a private address (10.0.0.7) ..."
 */
export function webhookUrlProblem(url: unknown, env: Pick<Env, "SLOTWISE_LOCAL">): string | undefined {
  const parsed = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined
  if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") return WEBHOOK_URL_RULE
  if (env.SLOTWISE_LOCAL === "1" && parsed.hostname === LOCAL_HOST) return undefined
  if (parsed.protocol !== "https:") return WEBHOOK_URL_RULE
  const kind = privateAddressKind(parsed.hostname)
  if (kind === undefined) return undefined
  const article = /^[aeiou]/.test(kind) ? "an" : "a"
  return `must not name ${article} ${kind} address (${parsed.hostname}); only a public host (127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)`
}
