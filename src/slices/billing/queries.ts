import { and, eq, isNull, lte, sql } from "drizzle-orm"
import type { Database } from "./db.ts"
import { trialReminders, trials, usageEvents, usageTotals, usageWebhooks } from "./schema.ts"

/** Closes every open trial due as of `slot`; a missed day is closed by the next slot. */
export async function closeTrialsDueAt(db: Database, slot: number): Promise<number> {
  const closed = await db
    .update(trials)
    .set({ closedAt: slot })
    .where(and(isNull(trials.closedAt), lte(trials.dueAt, slot)))
    .returning({ id: trials.id })
  return closed.length
}

/**
 * Adds every pending usage event at or before `slot` to its account's total and marks it
 * rolled up, in one D1 batch: a replay finds nothing pending, so nothing is counted twice.
 */
export async function rollUpUsageThrough(db: Database, slot: number): Promise<number> {
  const pending = and(isNull(usageEvents.rolledUpSlot), lte(usageEvents.at, slot))
  const totals = db
    .select({
      account: usageEvents.account,
      quantity: sql<number>`sum(${usageEvents.quantity})`.as("quantity"),
      throughSlot: sql<number>`cast(${slot} as bigint)`.as("through_slot"),
    })
    .from(usageEvents)
    .where(pending)
    .groupBy(usageEvents.account)
  const [, marked] = await db.batch([
    db
      .insert(usageTotals)
      .select(totals)
      .onConflictDoUpdate({
        // Unqualified, as Postgres wants a conflict target (drizzle would write "usage_totals"."account" here).
        target: sql`account`,
        set: { quantity: sql`${usageTotals.quantity} + excluded.quantity`, throughSlot: sql`excluded.through_slot` },
      }),
    db.update(usageEvents).set({ rolledUpSlot: slot }).where(pending).returning({ id: usageEvents.id }),
  ])
  return marked.length
}

export const startTrial = (db: Database, account: string, dueAt: number) =>
  db.insert(trials).values({ account, dueAt }).returning().get()

export const recordUsage = (db: Database, account: string, quantity: number, at: number) =>
  db.insert(usageEvents).values({ account, quantity, at }).returning().get()

export const usageTotalOf = (db: Database, account: string) =>
  db.select().from(usageTotals).where(eq(usageTotals.account, account)).get()

export const trialById = (db: Database, id: number) => db.select().from(trials).where(eq(trials.id, id)).get()

/** A reminder sent, as a statement for the consumer's `once` to commit with its delivery's key. */
export const recordReminder = (
  db: Database,
  idempotencyKey: string,
  account: string,
  trialId: number,
  sentAt: number,
) => db.insert(trialReminders).values({ idempotencyKey, account, trialId, sentAt })

export const remindersOf = (db: Database, account: string) =>
  db.select().from(trialReminders).where(eq(trialReminders.account, account)).all()

export const webhookOf = (db: Database, account: string) =>
  db.select().from(usageWebhooks).where(eq(usageWebhooks.account, account)).get()

/**
 * Records `scheduleId` as the account's webhook if its current one is still `previous` (null: none
 * yet), in one statement; false when a concurrent subscribe recorded its own first.
 */
export async function replaceWebhook(
  db: Database,
  account: string,
  scheduleId: string,
  previous: string | null,
): Promise<boolean> {
  const written =
    previous === null
      ? await db.insert(usageWebhooks).values({ account, scheduleId }).onConflictDoNothing().returning()
      : await db
          .update(usageWebhooks)
          .set({ scheduleId })
          .where(and(eq(usageWebhooks.account, account), eq(usageWebhooks.scheduleId, previous)))
          .returning()
  return written.length === 1
}
