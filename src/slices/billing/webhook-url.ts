import { refusedAddress } from "./refused-address.ts"

/** The longest webhook url the route takes. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048

/** Where the usage webhook may POST: https only; http://127.0.0.1 too when running locally (SLOTWISE_LOCAL=1). */
export const WEBHOOK_URL_RULE = "must be https:// (http://127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)"

/** Why a url with a user or password is refused: the consumer sends no credentials, and none belong in a schedule. */
export const WEBHOOK_URL_CREDENTIALS =
  "must not hold a user or password (user:password@ before the host); a receiver's secret belongs in the query, whose values slotwise never writes to a reason or a log line"

/** The one address a Worker running locally (SLOTWISE_LOCAL=1) may POST to, over http or https. */
const LOCAL_HOST = "127.0.0.1"

/**
 * Why `url` is not a webhook this Worker may POST to, or undefined when it is: it must be
 * https://, must hold no user or password, and must not name an address in a refused block
 * (refused-ranges.ts: IANA's special-purpose registries, multicast, and the IPv4 address inside
 * IPv4-mapped, NAT64 and 6to4 forms), nor localhost; a DNS name is not resolved here. Running
 * locally (SLOTWISE_LOCAL=1), 127.0.0.1 is allowed.
 * @example webhookUrlProblem("https://10.0.0.7/hook", env) // "must not name 10.0.0.7, in 10.0.0.0/8 (private-use, RFC 1918); ..."
 */
export function webhookUrlProblem(url: unknown, env: Pick<Env, "SLOTWISE_LOCAL">): string | undefined {
  const parsed = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined
  if (parsed?.protocol !== "https:" && parsed?.protocol !== "http:") return WEBHOOK_URL_RULE
  if (parsed.username !== "" || parsed.password !== "") return WEBHOOK_URL_CREDENTIALS
  if (env.SLOTWISE_LOCAL === "1" && parsed.hostname === LOCAL_HOST) return undefined
  if (parsed.protocol !== "https:") return WEBHOOK_URL_RULE
  const refusal = refusedAddress(parsed.hostname)
  if (refusal === undefined) return undefined
  const { range, via } = refusal
  const through = via ? `, which reaches ${via.ipv4} (${via.form.name}, ${via.form.rfc})` : ""
  return `must not name ${parsed.hostname}${through}, in ${range.block} (${range.name}, ${range.rfc}); only a public host (127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)`
}
