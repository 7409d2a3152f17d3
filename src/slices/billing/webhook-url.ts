/** The longest webhook url the route takes. */
export const MAX_WEBHOOK_URL_LENGTH = 2_048

/** Where the usage webhook may POST: https only; http://127.0.0.1 too when running locally (SLOTWISE_LOCAL=1). */
export const WEBHOOK_URL_RULE = "must be https:// (http://127.0.0.1 only when running locally, SLOTWISE_LOCAL=1)"

/** Why `url` is not a webhook this Worker may POST to, or undefined when it is. */
export function webhookUrlProblem(url: unknown, env: Pick<Env, "SLOTWISE_LOCAL">): string | undefined {
  const parsed = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined
  if (parsed?.protocol === "https:") return undefined
  const local = env.SLOTWISE_LOCAL === "1" && parsed?.protocol === "http:" && parsed.hostname === "127.0.0.1"
  return local ? undefined : WEBHOOK_URL_RULE
}
