import type { AlertKind } from "./rule.ts"

/**
 * What an alert's consumer is delivered (`delivery.payload`): one notice when an incident opens
 * (`status: "firing"`) and one when it resolves. Each is a one-shot schedule of the alert stream, so it
 * has the stream's retries, its idempotency key and its history (admin's events).
 */
export type AlertNotice = {
  /** The rule's id: `job-failed.<job>`, `job-missed.<job>`, `heartbeat-late`, `schedule-failed.<stream>`, `stream-overdue`. */
  rule: string
  kind: AlertKind
  /** What the incident is about: the job, `heartbeat`, `<stream>/<schedule id>`, or the stream. */
  subject: string
  status: "firing" | "resolved"
  /** One line a person reads: "billing.close-expired-trials failed its newest 3 runs". */
  summary: string
  /** When the incident opened (epoch ms). */
  openedAt: number
  /** When it resolved, or null while firing. */
  resolvedAt: number | null
}

/** FNV-1a of the text, as 8 hex digits: a schedule id may not hold a rule's or a subject's characters. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16).padStart(8, "0")
}

/**
 * The schedule id of an incident's notice, the same each time it is asked for: `<kind>-<hash of rule and
 * subject>-<opened, base 36>-<status>`, so an upsert repeated after a lost answer changes nothing.
 */
export const noticeId = (notice: Pick<AlertNotice, "kind" | "rule" | "subject" | "openedAt" | "status">) =>
  `${notice.kind}-${hash(`${notice.rule}\n${notice.subject}`)}-${notice.openedAt.toString(36)}-${notice.status}`
