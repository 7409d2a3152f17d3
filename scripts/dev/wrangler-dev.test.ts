import { once } from "node:events"
import type { Server } from "node:net"
import { createInterface } from "node:readline"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevOutput } from "./dev-output.ts"
import { waitForHealth } from "./health.ts"
import { inspectorPort } from "./ports.ts"
import { holdPort, portWithFreeInspector } from "./test-ports.ts"
import { devArgs, spawnWrangler, stopWranglers } from "./wrangler.ts"

const HEALTH_TIMEOUT_MS = 120_000
const LINE_TIMEOUT_MS = 30_000

/**
 * The example Worker under `wrangler dev` as npm start runs it (its arguments, its pass over the output),
 * beside another checkout's inspector holding the port this one's PORT would give it.
 */
describe("npm start's wrangler dev", () => {
  let origin: string
  let inspector: number
  let other: Server
  const shown: string[] = []

  beforeAll(async () => {
    const port = await portWithFreeInspector()
    other = await holdPort(port + 442)
    inspector = await inspectorPort(port)
    const dev = spawnWrangler(devArgs(port, inspector), {}, null)
    const output = new DevOutput()
    for (const stream of [dev.stdout, dev.stderr]) {
      if (stream) createInterface({ input: stream }).on("line", (line) => shown.push(...output.lines(line)))
    }
    origin = `http://127.0.0.1:${port}`
    const healthy = await Promise.race([
      waitForHealth(origin, HEALTH_TIMEOUT_MS, new AbortController().signal),
      once(dev, "exit").then(() => false),
    ])
    if (!healthy) throw new Error(`wrangler dev did not answer ${origin}/health:\n${shown.join("\n")}`)
  }, HEALTH_TIMEOUT_MS)
  afterAll(async () => {
    await stopWranglers(10_000)
    await new Promise((done) => other.close(done))
  })

  it("runs workerd's inspector on the port npm start chose, not the one another checkout holds", async () => {
    expect(inspector).not.toBe(Number(new URL(origin).port) + 442)
    const targets = (await (await fetch(`http://127.0.0.1:${inspector}/json`)).json()) as unknown[]
    expect(targets.length).toBeGreaterThan(0)
  })

  it("shows a warning the Worker logs as the one plain line it wrote, no blank line after it", async () => {
    // A trigger that is not the heartbeat's: Jobs.heartbeat writes one warning line naming it (src/infra/log.ts, console.warn).
    const fired = await fetch(`${origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("5 4 * * *")}`)
    await fired.arrayBuffer()
    const deadline = Date.now() + LINE_TIMEOUT_MS
    const at = () => shown.findIndex((line) => line.includes('"heartbeat: not its cron"'))
    while (at() < 0 && Date.now() < deadline) await sleep(100)
    const line = shown[at()]
    expect(line, shown.join("\n")).toBeDefined()
    expect(JSON.parse(line as string)).toMatchObject({
      level: "warn",
      message: "heartbeat: not its cron",
      cron: "5 4 * * *",
    })
    // The box's blank lines come in the same write as the line; wrangler's line for a later request comes after them.
    await (await fetch(`${origin}/health`)).arrayBuffer()
    const next = () => shown.findIndex((said, i) => i > at() && said.includes("GET /health"))
    while (next() < 0 && Date.now() < deadline) await sleep(100)
    expect(next()).toBeGreaterThan(at())
    expect(shown.slice(at() + 1, next())).not.toContain("")
  })
})
