import { execFileSync } from "node:child_process"
import path from "node:path"
import { createClient } from "@libsql/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ContainerProcess, startContainerProcess, WITHIN_MS, waitFor } from "./container-process.ts"
import { freshFileUrl } from "./engines.ts"
import { freshPostgresDatabase } from "./postgres-database.ts"

const root = path.resolve(import.meta.dirname, "../..")
const TOKEN = "main-test-token"

type Replica = ContainerProcess

/** Starts the bundle `npm run start:node` runs, as the image does; resolves once it listens. */
const startMain = (databaseUrl: string) =>
  startContainerProcess(["dist-container/main.js"], {
    cwd: root,
    env: { SLOTWISE_DATABASE_URL: databaseUrl, PORT: "0", HOST: "127.0.0.1", ADMIN_TOKEN: TOKEN },
  })

// The bundle `npm run start:node` builds, built once for every process below.
beforeAll(() => {
  execFileSync("npm", ["run", "--silent", "build:container"], { cwd: root, stdio: "inherit" })
})

describe("src/main.ts, two processes on one database file", () => {
  const databaseUrl = freshFileUrl()
  let replicas: Replica[] = []

  beforeAll(async () => {
    replicas = await Promise.all([startMain(databaseUrl), startMain(databaseUrl)])
  })
  afterAll(() => {
    for (const replica of replicas) replica.process.kill("SIGKILL")
  })

  it("both start, applying each migration once between them", async () => {
    const applied = replicas.flatMap((replica) =>
      replica.lines.filter((line) => line.message === "container.migrated").flatMap((line) => line.applied as string[]),
    )
    const client = createClient({ url: databaseUrl })
    const recorded = (await client.execute("SELECT name FROM d1_migrations ORDER BY name")).rows.map((row) => row.name)
    client.close()
    expect(recorded.length).toBeGreaterThan(0)
    expect(applied.sort()).toEqual(recorded)
    for (const replica of replicas) expect((await fetch(`${replica.url}/health`)).status).toBe(200)
  })

  it("runs the example job at start-up, its slot once across both, with its one log line", async () => {
    const runs = () =>
      replicas.flatMap((replica) =>
        replica.lines.filter((line) => line.message === "job.run" && line.job === "billing.roll-up-usage"),
      )
    // Both fire the start-up slot; one claims it, the other is refused and writes no line.
    await waitFor(() => runs().length > 0, "a job.run line")
    const ran = runs().filter((line) => line.outcome === "ran")
    const slots = ran.map((line) => line.slot)
    expect(new Set(slots).size).toBe(slots.length)
    expect(ran[0]).toMatchObject({ level: "info", outcome: "ran", ms: expect.any(Number), runId: expect.any(String) })
  })

  it("answers 501 for stream routes and the billing and statements routes that need streams, writing nothing", async () => {
    const [replica] = replicas
    const call = (method: string, route: string, body?: unknown) =>
      fetch(`${replica!.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const refused = [
      await call("POST", "/billing/usage", { account: "acme", quantity: 3 }),
      await call("POST", "/billing/trials", { account: "acme", dueAt: "2036-01-01T00:00:00Z" }),
      await call("PUT", "/billing/usage/acme/webhook", { url: "https://example.com/hook" }),
      await call("GET", "/billing/usage/acme/webhook"),
      await call("DELETE", "/billing/usage/acme/webhook"),
      await call("PUT", "/statements/acme"),
      await call("GET", "/admin/streams"),
      await call("PUT", "/admin/streams/acme/schedules/ping", { consumer: "billing.usage-report", after: "1 minute" }),
    ]
    for (const response of refused) {
      expect(response.status).toBe(501)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
    }
    expect(await refused[0]!.json()).toMatchObject({ status: 501, detail: expect.stringMatching(/Worker profile/) })
    const client = createClient({ url: databaseUrl })
    expect((await client.execute("SELECT count(*) AS n FROM usage_events")).rows[0]?.n).toBe(0)
    expect((await client.execute("SELECT count(*) AS n FROM trials")).rows[0]?.n).toBe(0)
    client.close()
    // The admin door still comes first, and the routes without streams still answer.
    expect((await fetch(`${replica!.url}/admin/streams`)).status).toBe(401)
    expect((await call("GET", "/admin/jobs")).status).toBe(200)
    expect((await call("GET", "/billing/usage/acme")).status).toBe(404)
  })

  it("declares in its OpenAPI document the 501 of every stream route, as a Problem", async () => {
    const res = await fetch(`${replicas[0]!.url}/admin/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>
    }
    const problem = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } }
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, { responses }] of Object.entries(operations)) {
        if (path.startsWith("/streams")) expect(responses[501]?.content, `${method} ${path}`).toEqual(problem)
        else expect(responses[501], `${method} ${path}`).toBeUndefined()
      }
    }
    expect(Object.keys(doc.paths).filter((path) => path.startsWith("/streams")).length).toBeGreaterThan(0)
  })

  it("stops on SIGTERM: timer and server first, then what is in flight, within its bound", async () => {
    for (const replica of replicas) replica.process.kill("SIGTERM")
    const codes = await Promise.all(
      replicas.map((replica) =>
        Promise.race([replica.exited, new Promise((done) => setTimeout(() => done("still running"), WITHIN_MS))]),
      ),
    )
    expect(codes).toEqual([0, 0])
    for (const replica of replicas) {
      expect(replica.lines.at(-1)).toMatchObject({ message: "container.stopped", abandoned: 0 })
    }
  })
})

describe("src/main.ts on PostgreSQL (SLOTWISE_DATABASE_URL=postgres://…)", () => {
  let replica: Replica | undefined

  beforeAll(async () => {
    replica = await startMain(await freshPostgresDatabase())
  })
  afterAll(() => replica?.process.kill("SIGKILL"))

  it("applies the PostgreSQL migrations, writes job.run lines and answers /admin/health", async () => {
    const started = replica as Replica
    expect(started.lines.find((line) => line.message === "container.migrated")?.applied).toContain(
      "0001_slotwise_jobs_leases.sql",
    )
    await waitFor(
      () => started.lines.some((line) => line.message === "job.run" && line.outcome === "ran"),
      "a job.run line with outcome ran",
    )
    const health = await fetch(`${started.url}/admin/health`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ ok: true, heartbeat: { status: "alive" } })
    started.process.kill("SIGTERM")
    expect(await started.exited).toBe(0)
    expect(started.lines.at(-1)).toMatchObject({ message: "container.stopped", abandoned: 0 })
  })
})
