import { env, introspectWorkflowInstance } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import { database } from "../../src/infra/db/index.ts"
import { Jobs, Schedules } from "../../src/infra/index.ts"
import { rollUpUsage } from "../../src/slices/billing/index.ts"
import { recordUsage } from "../../src/slices/billing/queries.ts"
import { adminFetch, json } from "../support/admin.ts"
import { stubOf, tickAt } from "../support/streams.ts"

describe("statements: a monthly schedule hands each month to a Workflow", () => {
  it("PUT schedules the statement; its delivery runs the Workflow, which reads the account's rolled-up usage", async () => {
    const account = "statements-acme"
    const slot = new Date(Date.UTC(2026, 10, 30, 12, 0))
    await recordUsage(database(env.DB), account, 9, slot.getTime() - 1)
    await Jobs.run(rollUpUsage, slot, { env })

    const put = await adminFetch(`/statements/${account}`, { method: "PUT" })
    expect(put.status).toBe(200)
    const schedule = await json(put)
    expect(schedule).toMatchObject({ consumer: "statements.monthly", timing: { kind: "cron", cron: "0 6 1 * *" } })
    expect(new Date(schedule.nextAt).toISOString()).toMatch(/-01T06:00:00\.000Z$/)
    const id = await Schedules.workflowInstanceId(schedule.idempotencyKey)
    await using instance = await introspectWorkflowInstance(env.STATEMENTS, id)
    await tickAt(stubOf(account), schedule.nextAt)
    await instance.waitForStatus("complete")
    expect(await instance.getOutput()).toMatchObject({ account, occurrence: 1, quantity: 9 })
  })

  it("refuses a bad account, naming the field, and answers only behind the admin token", async () => {
    const badAccount = await adminFetch("/statements/white%20space", { method: "PUT" })
    expect(badAccount.status).toBe(400)
    expect(await json(badAccount)).toMatchObject({ field: expect.stringContaining("account") })
    expect((await adminFetch("/statements/acme", { method: "PUT", token: null })).status).toBe(401)
  })
})
