import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type LocalWorker, startWorker } from "./worker.ts"

/**
 * The Workflow hand-off under a real `wrangler dev` (no Chromium): a statements schedule triggered through admin
 * is delivered by the stream's alarm and starts a StatementWorkflow instance, whose last step writes a line.
 */

const ACCOUNT = "dev-workflow"
/** How long the alarm, the delivery and the Workflow's three steps may take together. */
const INSTANCE_TIMEOUT_MS = 45_000
const POLL_MS = 250

let worker: LocalWorker | undefined

const call = async (method: string, path: string) => {
  if (!worker) throw new Error("wrangler dev is not running")
  const res = await fetch(`${worker.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${worker.token}` },
    signal: AbortSignal.timeout(15_000),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** wrangler's output lines that the statement Workflow's last step wrote for ACCOUNT. */
const sentLines = () =>
  (worker?.log() ?? "").split("\n").filter((line) => line.includes('"statements.sent"') && line.includes(ACCOUNT))

/** Waits until the Workflow's last step ran (its line in wrangler's output); fails with that output past the timeout. */
async function statementSent(): Promise<string> {
  const deadline = Date.now() + INSTANCE_TIMEOUT_MS
  while (Date.now() < deadline) {
    const [line] = sentLines()
    if (line) return line
    await sleep(POLL_MS)
  }
  throw new Error(`the statement Workflow never sent for ${ACCOUNT}:\n${worker?.log()}`)
}

describe("Schedules.workflow under wrangler dev", () => {
  beforeAll(async () => {
    worker = await startWorker()
  })
  afterAll(async () => {
    await worker?.stop()
  })

  test("a triggered statements schedule starts a Workflow instance that runs its steps to the end", async () => {
    const put = await call("PUT", `/statements/${ACCOUNT}`)
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ consumer: "statements.monthly", occurrence: 1 })
    expect(sentLines()).toEqual([])

    const triggered = await call("POST", `/admin/streams/${ACCOUNT}/schedules/monthly-statement/trigger`)
    expect(triggered.status).toBe(200)

    const sent = await statementSent()
    expect(put.body.idempotencyKey).toMatch(new RegExp(`^schedule:${ACCOUNT}/monthly-statement@[0-9a-f]{12}:1$`))
    expect(sent).toContain(`"idempotencyKey":"${put.body.idempotencyKey}"`)
    expect(sent).toContain("Usage: 0 units")
    expect(sentLines()).toHaveLength(1)
    const events = (await call("GET", `/admin/streams/${ACCOUNT}/schedules/monthly-statement`)).body.events as Array<{
      type: string
      data: { occurrence?: number }
    }>
    expect(events.filter((event) => event.type === "schedule/fired").map((event) => event.data.occurrence)).toEqual([1])
  })
})
