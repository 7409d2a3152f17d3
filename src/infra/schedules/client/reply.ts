import type { ScheduleField } from "./contract.ts"

/** What a stream's RPC method answers: errors travel as data, since RPC drops error classes. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ReplyError }

export interface ReplyError {
  code: "invalid" | "not_found" | "conflict" | "unavailable"
  message: string
  field?: ScheduleField
}

export const ok = <T>(value: T): Reply<T> => ({ ok: true, value })
export const refuse = (code: ReplyError["code"], message: string, field?: ScheduleField): Reply<never> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
})
