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
  /** The subject in words: "job billing.close-expired-trials", "schedule trial-ending of stream tenant-42". */
  about: string
  status: "firing" | "resolved"
  /** One line a person reads: firing, what happened ("… failed its newest 3 runs …"); resolved, what resolved it. */
  summary: string
  /** What opened the incident (the firing notice's summary), in both notices. */
  cause: string
  /** What to check first: the rule's runbook line (docs/admin.md, "What to check first"). */
  check: string
  /** The dashboard's page for the subject, when the Worker's SLOTWISE_DASHBOARD_URL is set; else null. */
  link: string | null
  /** When the incident opened (epoch ms). */
  openedAt: number
  /** When it resolved, or null while firing. */
  resolvedAt: number | null
}

/** A notice as the rules and the switch make it; `dress` adds what a person reads besides. */
export type BareNotice = Omit<AlertNotice, "about" | "cause" | "check" | "link"> & { cause?: string }

/** Each rule's runbook line: what to check first (docs/admin.md keeps the same lines). */
export const RUNBOOK: Record<AlertKind, string> = {
  "job-failed":
    "Open the job's runs: read the newest error and fix its cause; the next slot runs again, or press Run now.",
  "job-missed":
    "Check health's heartbeat (is the Cron Trigger firing?) and held leases (does a long run hold the lease?).",
  "heartbeat-late":
    "Check the Worker's Cron Trigger (* * * * *) and its errors, and whether slotwise.alerts is paused: no job runs meanwhile.",
  "schedule-failed": "Open the schedule's events: read its last error, fix the consumer or its target, then Resume it.",
  "stream-overdue":
    "Check the stream's alarm: is schedules.alarm-watchdog declared, running and not paused? Then its consumers' errors.",
}

/** The subject in words, and its place on the dashboard (`#job=`, `#stream=`…, read by the dashboard's links.ts). */
function place(kind: AlertKind, subject: string): [about: string, hash: string] {
  const at = (key: string, value: string) => `${key}=${encodeURIComponent(value)}`
  if (kind === "job-failed" || kind === "job-missed") return [`job ${subject}`, at("job", subject)]
  if (kind === "stream-overdue") return [`stream ${subject}`, at("stream", subject)]
  if (kind === "heartbeat-late") return ["the heartbeat", "health"]
  const slash = subject.indexOf("/")
  const [stream, id] = [subject.slice(0, slash), subject.slice(slash + 1)]
  return [`schedule ${id} of stream ${stream}`, `${at("stream", stream)}&${at("schedule", id)}`]
}

/**
 * The notice a person reads: the subject in words, what opened it, the rule's runbook line and a link to the
 * dashboard's page for it when `dashboard` (SLOTWISE_DASHBOARD_URL: the dashboard's absolute http(s) URL) is set.
 */
export function dress(notice: BareNotice, dashboard: string | undefined): AlertNotice {
  const [about, hash] = place(notice.kind, notice.subject)
  const base = /^https?:\/\/[^\s#]+$/.test(dashboard ?? "") ? dashboard : undefined
  return {
    ...notice,
    about,
    cause: notice.cause ?? notice.summary,
    check: RUNBOOK[notice.kind],
    link: base ? `${base}#${hash}` : null,
  }
}

const FNV64_PRIME = 0x100000001b3n
const U64 = (1n << 64n) - 1n

/**
 * FNV-1a of the text, 64 bits as 16 hex digits: a schedule id may not hold a rule's or a subject's characters, and
 * two incidents opened in one run must not share an id (32 bits did: two ids found in seconds, and one chance in
 * 1,500 for 2,400 subjects at once).
 */
function hash(text: string): string {
  let h = 0xcbf29ce484222325n
  for (let i = 0; i < text.length; i++) h = ((h ^ BigInt(text.charCodeAt(i))) * FNV64_PRIME) & U64
  return h.toString(16).padStart(16, "0")
}

/**
 * The schedule id of an incident's notice, the same each time it is asked for: `<kind>-<hash of rule and
 * subject>-<opened, base 36>-<status>`, so an upsert repeated after a lost answer changes nothing.
 */
export const noticeId = (notice: Pick<AlertNotice, "kind" | "rule" | "subject" | "openedAt" | "status">) =>
  `${notice.kind}-${hash(`${notice.rule}\n${notice.subject}`)}-${notice.openedAt.toString(36)}-${notice.status}`
