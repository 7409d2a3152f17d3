import { Schedules } from "slotwise/portable"

export type StatementPayload = { account: string }

/** The one schedule id of an account's statement, in the account's own stream. */
export const STATEMENT_SCHEDULE_ID = "monthly-statement"

/**
 * On the 1st of each month per account: starts one StatementWorkflow instance (wrangler.toml binds it as
 * STATEMENTS). A redelivered occurrence finds its instance and starts nothing new.
 */
export const monthlyStatement = Schedules.workflow({ name: "statements.monthly", binding: "STATEMENTS" })
