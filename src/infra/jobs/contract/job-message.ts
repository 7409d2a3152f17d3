import type { Job } from "./definition.ts"

/**
 * What the heartbeat hands a Queue for one due job: the job's name and the slot it is due in, as an
 * ISO string (the slot, never "now": the queue handler runs what was due as of it, however late).
 */
export interface JobMessage {
  /** The job's name, as declared in `Jobs.make`. */
  job: string
  /** The slot's start, an ISO string: `2026-11-30T03:00:00.000Z`. */
  slot: string
}

/** Cloudflare Queues' limits on one `sendBatch` call: 100 messages, 256 KB in all. */
export const SEND_BATCH_MAX_MESSAGES = 100
export const SEND_BATCH_MAX_BYTES = 256_000

/** One message per due job, each naming the same slot. */
export const jobMessages = (due: readonly Job[], slot: Date): JobMessage[] =>
  due.map((job) => ({ job: job.name, slot: slot.toISOString() }))

/**
 * The messages cut into `sendBatch` calls within Queues' limits, in order. A message is at most
 * ~150 bytes (a job name is at most 100 ASCII characters), far below the 128 KB one message may hold.
 */
export function batchesOf(
  messages: readonly JobMessage[],
  maxMessages = SEND_BATCH_MAX_MESSAGES,
  maxBytes = SEND_BATCH_MAX_BYTES,
): JobMessage[][] {
  const batches: JobMessage[][] = []
  let current: JobMessage[] = []
  let bytes = 0
  for (const message of messages) {
    const size = JSON.stringify(message).length
    if (current.length > 0 && (current.length === maxMessages || bytes + size > maxBytes)) {
      batches.push(current)
      current = []
      bytes = 0
    }
    current.push(message)
    bytes += size
  }
  if (current.length > 0) batches.push(current)
  return batches
}

export type ParsedMessage =
  | { ok: true; job: Job; slot: Date }
  | { ok: false; field: "body" | "job" | "slot"; reason: string }

/**
 * A delivered body read back: a job of `jobs` by name and a valid slot (an ISO string or epoch ms),
 * or the field that is wrong and why.
 */
export function parseJobMessage(body: unknown, jobs: ReadonlyMap<string, Job>): ParsedMessage {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, field: "body", reason: "must be an object { job, slot }" }
  }
  const { job: name, slot } = body as Record<string, unknown>
  if (typeof name !== "string") return { ok: false, field: "job", reason: "must be a job's name" }
  const job = jobs.get(name)
  if (job === undefined)
    return { ok: false, field: "job", reason: `no job named ${JSON.stringify(name.slice(0, 100))}` }
  const time = typeof slot === "string" ? Date.parse(slot) : typeof slot === "number" ? slot : Number.NaN
  if (!Number.isFinite(time) || Number.isNaN(new Date(time).getTime())) {
    return { ok: false, field: "slot", reason: "must be an ISO date string or epoch milliseconds" }
  }
  return { ok: true, job, slot: new Date(time) }
}
