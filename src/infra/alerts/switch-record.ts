import { and, eq, sql } from "drizzle-orm"
import type { SQLiteColumn } from "drizzle-orm/sqlite-core"
import { alertIncidents, type Database } from "../db/index.ts"

/**
 * The rule name of the dead man's switch's record in alert_incidents: no rule has it (a rule id is a kind, or a kind
 * and a dot), so a release that does not know the record leaves it alone. Its opened_at is the time the switch is
 * armed for; it outlives the alert stream's retention, so a switch that fired and was swept is still known to have.
 */
export const SWITCH_RECORD = "dead-mans-switch"
const SUBJECT = "heartbeat"

/** The query of the switch's record: when it is armed for, and in which alert stream (its summary). */
export const switchRecordQuery = (db: Database) =>
  db
    .select({ armedFor: alertIncidents.openedAt, stream: alertIncidents.summary })
    .from(alertIncidents)
    .where(and(eq(alertIncidents.rule, SWITCH_RECORD), eq(alertIncidents.subject, SUBJECT)))

/** The statement that records the switch armed for `armedFor` in `stream`, or, given null, forgets it (the rule is gone). */
export function recordSwitch(db: Database, armedFor: number | null, stream: string) {
  if (armedFor === null)
    return db
      .delete(alertIncidents)
      .where(and(eq(alertIncidents.rule, SWITCH_RECORD), eq(alertIncidents.subject, SUBJECT)))
  const row = {
    rule: SWITCH_RECORD,
    subject: SUBJECT,
    openedAt: armedFor,
    state: "armed",
    sent: 1,
    summary: stream,
    resolvedAt: null,
  }
  return (
    db
      .insert(alertIncidents)
      .values(row)
      // Unqualified, as PostgreSQL requires of a conflict target (incidents.ts).
      .onConflictDoUpdate({
        target: [sql.identifier("rule"), sql.identifier("subject")] as unknown as SQLiteColumn[],
        set: { openedAt: armedFor, summary: stream },
      })
  )
}
