import type { Job } from "../../src/infra/jobs/index.ts"
import { Jobs } from "../../src/infra/jobs/index.ts"
import type { Job010 } from "../compat/0.1.0/engine.js"
import { Jobs as Jobs010 } from "../compat/0.1.0/engine.js"

/**
 * The simulated jobs. Their crons are of two shapes the model reads without croner: every `every` minutes
 * (`*\/k * * * *`), or once an hour at minute `at` (`m * * * *`).
 */
export interface Cadence {
  every?: number
  at?: number
}

export const cronOf = ({ every, at }: Cadence) => (every !== undefined ? `*/${every} * * * *` : `${at} * * * *`)

/** Whether the cadence names the minute starting at `slot` (the model's own reading of the cron). */
export const names = ({ every, at }: Cadence, slot: number) => {
  const minute = Math.floor(slot / 60_000) % 60
  return every !== undefined ? minute % every === 0 : minute === at
}

/** What a job does in one run, as the step chose: throw, and how many D1 queries it makes (through a session or not). */
export interface Act {
  fail: boolean
  queries: number
  session: boolean
}

export const IDLE: Act = { fail: false, queries: 0, session: false }

/** What a run's body saw: its queries granted, refused by its invocation's budget, or refused by D1 itself. */
export interface Executed {
  job: string
  slot: number
  granted: number
  budgetRefused: number
  d1Refused: number
  threw: boolean
}

export interface JobHooks {
  act(job: string, slot: number): Act
  ran(executed: Executed): void
}

/** A job's declared timeout, by its index (a long one holds its lease past the next slot): its lease is this plus one minute. */
export const timeoutOf = (index: number) => (index % 2 === 0 ? 1_000 : 90_000)
export const leaseOf = (index: number) => timeoutOf(index) + 60_000

export function simJob(name: string, cadence: Cadence, timeoutMs: number, hooks: JobHooks): Job {
  return Jobs.make({
    name,
    cron: cronOf(cadence),
    exclusive: true,
    timeout: timeoutMs,
    run: async (slot, ctx) => {
      const act = hooks.act(name, slot.getTime())
      const seen: Executed = {
        job: name,
        slot: slot.getTime(),
        granted: 0,
        budgetRefused: 0,
        d1Refused: 0,
        threw: false,
      }
      try {
        const db = act.session ? ctx.env.DB.withSession("first-unconstrained") : ctx.env.DB
        for (let i = 0; i < act.queries; i++) {
          try {
            await db.prepare("select 1 as one").first()
            seen.granted++
          } catch (error) {
            if ((error as Error).name === "D1QueryBudgetError") seen.budgetRefused++
            else seen.d1Refused++
            throw error
          }
        }
        if (act.fail) throw new Error(`${name}: failed as the step asked`)
      } catch (error) {
        seen.threw = true
        throw error
      } finally {
        hooks.ran(seen)
      }
    },
  })
}

/** The same job as a 0.1.0 replica declares it (test/compat/0.1.0): it does nothing, so it runs. */
export const oldJob = (name: string, cadence: Cadence, timeoutMs: number, hooks: Pick<JobHooks, "ran">): Job010 =>
  Jobs010.make({
    name,
    cron: cronOf(cadence),
    exclusive: true,
    timeout: timeoutMs,
    run: (slot) => {
      hooks.ran({ job: name, slot: slot.getTime(), granted: 0, budgetRefused: 0, d1Refused: 0, threw: false })
    },
  })
