import type { ScheduleField } from "./definition-error.ts"

/** What a stream's RPC method answers: errors travel as data, since RPC drops error classes. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ReplyError }

/** A refusal as a stream's RPC answers it; the client turns it back into a typed error, admin into a problem. */
export interface ReplyError {
  /** What kind of refusal: admin answers 400, 404, 409 or 503 for it. */
  code: "invalid" | "not_found" | "conflict" | "unavailable"
  /** What was refused and why, for a person. */
  message: string
  /** The input at fault, when there is one. */
  field?: ScheduleField
}

export const ok = <T>(value: T): Reply<T> => ({ ok: true, value })
export const refuse = (code: ReplyError["code"], message: string, field?: ScheduleField): Reply<never> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
})
