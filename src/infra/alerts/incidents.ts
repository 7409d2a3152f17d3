import { and, eq, ne, or, sql } from "drizzle-orm"
import type { BatchItem } from "drizzle-orm/batch"
import type { SQLiteColumn } from "drizzle-orm/sqlite-core"
import { alertIncidents, type Database } from "../db/index.ts"
import type { Finding } from "./findings.ts"
import type { BareNotice } from "./notice.ts"
import { type AlertKind, kindOfRule } from "./rule.ts"
import { SWITCH_RECORD } from "./switch-record.ts"

/** An incident as alert_incidents keeps it. */
export interface Incident {
  rule: string
  subject: string
  openedAt: number
  state: "firing" | "resolved"
  /** The notice of `state` is in the alert stream. */
  sent: boolean
  summary: string
  resolvedAt: number | null
}

/**
 * Incidents read a page: a run reads the first (those owing a notice, then the oldest) and, past it, one more in
 * turn, a minute each, so every incident is judged at least once every ceil(N / 1,000) - 1 minutes; and the
 * incidents of the run's findings, by key (incidentsOfFindings), so an incident already open is never opened again.
 */
export const INCIDENTS_READ = 1_000
/** Keys (rule and subject) a statement asks for at most: D1 binds at most 100 parameters a statement. */
const KEYS_PER_STATEMENT = 45
/** Notices sent a run at most; the rest next minute. */
export const NOTICES_PER_RUN = 50

/** What a run writes: the incidents it opens or resolves, and the notices it owes (oldest first). */
export interface IncidentPlan {
  writes: Incident[]
  notices: BareNotice[]
}

const key = (i: { rule: string; subject: string }) => `${i.rule}\n${i.subject}`

/** What a resolved notice of a rule no longer declared says resolved it. */
export const removedSummary = (incident: Pick<Incident, "rule">) =>
  `rule ${incident.rule} was removed from the code: nothing judges this incident any more`

/**
 * The notice of an incident's state. The row's summary is what its firing notice said, so a resolved notice's
 * `cause` is exactly that; its own summary (what resolved it) is the alert job's to say, or that the rule is gone.
 */
export const noticeOf = (
  incident: Incident,
  kind: AlertKind,
  status = incident.state,
  removed = false,
): BareNotice => ({
  rule: incident.rule,
  kind,
  subject: incident.subject,
  status,
  summary: status === "resolved" && removed ? removedSummary(incident) : incident.summary,
  ...(status === "resolved" ? { cause: incident.summary } : {}),
  openedAt: incident.openedAt,
  resolvedAt: status === "resolved" ? incident.resolvedAt : null,
})

/**
 * Opens an incident for each finding without one, resolves each firing incident whose finding is gone, and
 * owes a notice for each state not sent yet: one when it opens, one when it resolves, never one a minute. An
 * incident whose finding is gone before its firing notice went out (past the cap, or its upsert failed) keeps
 * owing that notice, and resolves the first run after it is out: the cap only delays, and the firing notice
 * always goes before the resolved one. A rule declared but not judged this run (its stream did not answer), or
 * an incident `unseen` by it (past a cut listing), is left as it is; a rule no longer declared resolves them, its notice saying so. Pure: `now`
 * is the database's now.
 */
export function planIncidents(
  open: readonly Incident[],
  findings: readonly Finding[],
  kinds: ReadonlyMap<string, AlertKind>,
  now: number,
  declared: ReadonlySet<string> = new Set(kinds.keys()),
  unseen: (incident: Incident) => boolean = () => false,
): IncidentPlan {
  const found = new Map(findings.map((finding) => [key(finding), finding]))
  const writes: Incident[] = []
  const notices: BareNotice[] = []
  for (const incident of open) {
    const removed = !declared.has(incident.rule)
    const kind = removed ? kindOfRule(incident.rule) : kinds.get(incident.rule)
    // Declared but not judged this run (or not for its subject), or a row no rule of this release can name: left as it is.
    if (kind === undefined || (!removed && unseen(incident))) continue
    const holds = !removed && found.delete(key(incident))
    // Resolved only once its firing notice is out: a resolved row owes its resolved notice alone.
    if (incident.state === "firing" && !holds && incident.sent) {
      // The summary stays what the firing notice said: the resolved notice's cause, however late it goes out.
      const resolved: Incident = { ...incident, state: "resolved", sent: false, resolvedAt: now }
      writes.push(resolved)
      notices.push(noticeOf(resolved, kind, "resolved", removed))
    } else if (!incident.sent) notices.push(noticeOf(incident, kind, incident.state, removed))
  }
  for (const finding of found.values()) {
    const kind = kinds.get(finding.rule) as AlertKind
    const opened: Incident = { ...finding, openedAt: now, state: "firing", sent: false, resolvedAt: null }
    writes.push(opened)
    notices.push(noticeOf(opened, kind))
  }
  return { writes, notices: notices.slice(0, NOTICES_PER_RUN) }
}

const fromRow = (row: typeof alertIncidents.$inferSelect): Incident => ({
  ...row,
  state: row.state === "resolved" ? "resolved" : "firing",
  sent: row.sent === 1,
})

const notSwitch = ne(alertIncidents.rule, SWITCH_RECORD)

/**
 * A page of the incidents (the switch's record is not one), INCIDENTS_READ long: those owing a notice first, so a
 * notice left past the cap always goes next, then the oldest; in an order no two rows share, so the pages part them.
 */
export const incidentsQuery = (db: Database, page = 0) =>
  db
    .select()
    .from(alertIncidents)
    .where(notSwitch)
    .orderBy(alertIncidents.sent, alertIncidents.openedAt, alertIncidents.rule, alertIncidents.subject)
    .limit(INCIDENTS_READ)
    .offset(page * INCIDENTS_READ)

/** How many incidents there are, the switch's record left out. */
export const incidentsCount = (db: Database) =>
  db.select({ n: sql<number>`count(*)` }).from(alertIncidents).where(notSwitch)

/** The page read besides the first this minute: each in turn (none while all fit in the first). */
export const turnPage = (count: number, now: number): number | undefined => {
  const pages = Math.ceil(count / INCIDENTS_READ)
  return pages <= 1 ? undefined : 1 + (Math.floor(now / 60_000) % (pages - 1))
}

/** What incidentsQuery answered, as incidents. */
export const incidentsOf = (rows: ReadonlyArray<typeof alertIncidents.$inferSelect>): Incident[] => rows.map(fromRow)

/**
 * `open` (the first page), this minute's page in turn when there are more (turnPage), and the incidents of the
 * findings neither holds, read by key, in one batch: past the first page, a newer incident already sent would
 * otherwise look new each minute, and one whose finding is gone would never be read to resolve.
 */
export async function incidentsOfFindings(
  db: Database,
  open: readonly Incident[],
  findings: readonly Finding[],
  count: number,
  now: number,
): Promise<Incident[]> {
  const page = turnPage(count, now)
  // All fit in the first page: every incident is in `open`.
  if (page === undefined) return [...open]
  const held = new Set(open.map(key))
  const missing = findings.filter((finding) => !held.has(key(finding)))
  const byKey = []
  for (let i = 0; i < missing.length; i += KEYS_PER_STATEMENT) {
    const keys = missing.slice(i, i + KEYS_PER_STATEMENT)
    const at = keys.map((k) => and(eq(alertIncidents.rule, k.rule), eq(alertIncidents.subject, k.subject)))
    byKey.push(
      db
        .select()
        .from(alertIncidents)
        .where(or(...at)),
    )
  }
  const rows = await db.batch([incidentsQuery(db, page), ...byKey])
  const all = new Map(open.map((incident) => [key(incident), incident]))
  // A row may be read twice (a page and a key, or a page shifted by a delete): judged once.
  for (const incident of rows.flat().map(fromRow)) if (!all.has(key(incident))) all.set(key(incident), incident)
  return [...all.values()]
}

/**
 * The plan's incidents, written in one batch, with `also` (the switch's record) after them: an incident opened is
 * inserted, never over an existing row (its opening and sent flag stay); one resolved updates its row.
 */
export async function writeIncidents(
  db: Database,
  incidents: readonly Incident[],
  also: ReadonlyArray<BatchItem<"sqlite">> = [],
): Promise<void> {
  // Unqualified, as PostgreSQL requires of a conflict target (drizzle would name the table too); SQLite takes both.
  const target = [sql.identifier("rule"), sql.identifier("subject")] as unknown as SQLiteColumn[]
  const [first, ...rest] = incidents.map((incident) => {
    const insert = db.insert(alertIncidents).values({ ...incident, sent: incident.sent ? 1 : 0 })
    if (incident.state === "firing") return insert.onConflictDoNothing({ target })
    return insert.onConflictDoUpdate({
      target,
      set: {
        state: sql`excluded.state`,
        sent: sql`excluded.sent`,
        resolvedAt: sql`excluded.resolved_at`,
      },
    })
  })
  const [one, ...more] = [...(first ? [first, ...rest] : []), ...also]
  if (one) await db.batch([one, ...more])
}

/** After their notices are in the alert stream: a firing incident is marked sent, a resolved one is deleted. */
export async function markSent(db: Database, notices: readonly BareNotice[]): Promise<void> {
  const [first, ...rest] = notices.map((notice) => {
    const at = and(
      eq(alertIncidents.rule, notice.rule),
      eq(alertIncidents.subject, notice.subject),
      eq(alertIncidents.openedAt, notice.openedAt),
      eq(alertIncidents.state, notice.status),
    )
    return notice.status === "resolved"
      ? db.delete(alertIncidents).where(at)
      : db.update(alertIncidents).set({ sent: 1 }).where(at)
  })
  if (first) await db.batch([first, ...rest])
}
