import { HonoBase as Hono } from "hono/hono-base"
import { TrieRouter } from "hono/router/trie-router"
import { validate } from "slotwise/admin"
import { Schedules } from "slotwise/portable"
import * as z from "zod/mini"
import { monthlyStatement, STATEMENT_SCHEDULE_ID, type StatementPayload } from "./consumers.ts"

// An account names its own schedule stream, so it follows the stream-name rule (README, Limits).
const account = z
  .string()
  .check(z.regex(/^(?!\.\.?$)[A-Za-z0-9._~-]{1,128}$/, 'must match [A-Za-z0-9._~-]{1,128} and not be "." or ".."'))

export const statementRoutes = new Hono<{ Bindings: Env }>({ router: new TrieRouter() }).put(
  "/:account",
  validate("param", z.object({ account })),
  async (c) => {
    const { account } = c.req.valid("param")
    const payload: StatementPayload = { account }
    // Idempotent: at 06:00 UTC on the 1st of each month, one Workflow instance per account and month.
    const schedule = await Schedules.stream(c.env.SCHEDULES, account).upsert({
      id: STATEMENT_SCHEDULE_ID,
      consumer: monthlyStatement.name,
      cron: "0 6 1 * *",
      payload,
    })
    return c.json(schedule)
  },
)
