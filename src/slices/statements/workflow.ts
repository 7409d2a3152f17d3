import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers"
import type { Schedules } from "slotwise/portable"
import { database } from "../billing/db.ts"
import { usageTotalOf } from "../billing/queries.ts"
import type { StatementPayload } from "./consumers.ts"

export type StatementParams = Schedules.WorkflowParams<StatementPayload>

/** What a finished statement instance returns: its output, in Cloudflare's Workflows dashboard. */
export interface StatementOutput {
  account: string
  occurrence: number
  quantity: number
  sentAt: string
}

/**
 * An account's monthly statement as durable steps, started by the statements.monthly schedule: each step's
 * result is stored by the Workflow, so a step that fails retries alone and a finished step never runs again.
 */
export class StatementWorkflow extends WorkflowEntrypoint<Env, StatementParams> {
  override async run(event: Readonly<WorkflowEvent<StatementParams>>, step: WorkflowStep): Promise<StatementOutput> {
    const { payload, occurrence, dueAt, idempotencyKey } = event.payload
    const total = await step.do("total usage", async () => {
      const rolled = await usageTotalOf(database(this.env.DB), payload.account)
      return { quantity: rolled?.quantity ?? 0, throughSlot: rolled?.throughSlot ?? null }
    })
    const text = await step.do("compose statement", async () =>
      [`Statement for ${payload.account}, due ${dueAt}`, `Usage: ${total.quantity} units`].join("\n"),
    )
    // A log line stands in for the email; the key lets a mail provider drop a resend of the same statement.
    const sentAt = await step.do("send statement", async () => {
      console.log(
        JSON.stringify({ level: "info", message: "statements.sent", account: payload.account, idempotencyKey, text }),
      )
      return new Date().toISOString()
    })
    return { account: payload.account, occurrence, quantity: total.quantity, sentAt }
  }
}
