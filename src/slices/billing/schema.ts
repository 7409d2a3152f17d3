import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core"

/** migrations/0002_billing_trials.sql */
export const trials = sqliteTable("trials", {
  id: integer("id").primaryKey(),
  account: text("account").notNull(),
  dueAt: integer("due_at").notNull(),
  closedAt: integer("closed_at"),
})

export const usageEvents = sqliteTable("usage_events", {
  id: integer("id").primaryKey(),
  account: text("account").notNull(),
  quantity: integer("quantity").notNull(),
  at: integer("at").notNull(),
  rolledUpSlot: integer("rolled_up_slot"),
})

export const usageTotals = sqliteTable("usage_totals", {
  account: text("account").primaryKey(),
  quantity: integer("quantity").notNull(),
  throughSlot: integer("through_slot").notNull(),
})

/** migrations/0004_billing_trial_reminders.sql */
export const trialReminders = sqliteTable("trial_reminders", {
  idempotencyKey: text("idempotency_key").primaryKey(),
  account: text("account").notNull(),
  trialId: integer("trial_id").notNull(),
  sentAt: integer("sent_at").notNull(),
})

/** migrations/0007_billing_usage_webhooks.sql */
export const usageWebhooks = sqliteTable("usage_webhooks", {
  account: text("account").primaryKey(),
  scheduleId: text("schedule_id").notNull(),
})
