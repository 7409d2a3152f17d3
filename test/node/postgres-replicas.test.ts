import { type ChildProcess, fork } from "node:child_process"
import path from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openContainerDatabase } from "../../src/infra/node/container-database.ts"
import { containerSettings } from "../../src/infra/node/settings.ts"
import { freshPostgresDatabase } from "./postgres-database.ts"
import { type PostgresServer, startPostgres } from "./postgres-server.ts"

const MINUTE = 60_000
const FIRST = Date.UTC(2026, 10, 30, 2, 50)
const slotAt = (n: number) => FIRST + n * MINUTE
/** Where replica a's run hangs until it is SIGKILLed. */
const HANG = 20
const WITHIN_MS = 20_000

interface Replica {
  child: ChildProcess
  lines: Array<Record<string, unknown>>
  beat(slot: number, now: number): Promise<Array<{ job: string; status: string; reason?: string }>>
}

/** Starts test/node/postgres-replica-process.ts as its own process; resolves once its database is open. */
function startReplica(name: string, databaseUrl: string): Promise<Replica> {
  const child = fork(path.join(import.meta.dirname, "postgres-replica-process.ts"), {
    env: { ...process.env, REPLICA: name, SLOTWISE_DATABASE_URL: databaseUrl, HANG_SLOT: String(slotAt(HANG)) },
    // The engine's sources as they are: parameter properties need more than type stripping.
    execArgv: ["--experimental-transform-types", "--no-warnings"],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  })
  const lines: Array<Record<string, unknown>> = []
  let buffered = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString()
    const complete = buffered.split("\n")
    buffered = complete.pop() ?? ""
    for (const text of complete) if (text.startsWith("{")) lines.push(JSON.parse(text))
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    for (const text of chunk.toString().split("\n")) {
      if (text.startsWith("{")) lines.push(JSON.parse(text))
      else if (text.trim() !== "") lines.push({ stderr: text })
    }
  })
  let next = 0
  const waiting = new Map<number, (results: never) => void>()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica ${name} not ready within ${WITHIN_MS} ms`)), WITHIN_MS)
    child.once("exit", (code) => reject(new Error(`replica ${name} exited with ${code}: ${JSON.stringify(lines)}`)))
    child.on("message", (message: { ready?: true; id?: number; results?: never }) => {
      if (message.ready) {
        clearTimeout(timer)
        resolve({
          child,
          lines,
          beat: (slot, now) =>
            new Promise((done) => {
              const id = ++next
              waiting.set(id, done)
              child.send({ id, slot, now })
            }),
        })
      } else if (message.id !== undefined) waiting.get(message.id)?.(message.results as never)
    })
  })
}

const waitFor = async (check: () => Promise<boolean>, what: string) => {
  const deadline = Date.now() + WITHIN_MS
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${WITHIN_MS} ms`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

// The test owns its server: it stops it for a minute of injected time, which other files must not see.
describe("two replica processes on one PostgreSQL server", () => {
  let server: PostgresServer
  let url: string
  let observer: pg.Pool
  let a: Replica
  let b: Replica

  beforeAll(async () => {
    server = await startPostgres()
    url = await freshPostgresDatabase(server.url)
    const database = await openContainerDatabase({ ...containerSettings({ SLOTWISE_DATABASE_URL: url }) })
    await database.migrate("migrations/postgres")
    await database.close()
    observer = new pg.Pool({ connectionString: url, max: 1 })
    observer.on("error", () => {})
    await observer.query("CREATE TABLE replica_runs (slot BIGINT NOT NULL, replica TEXT NOT NULL)")
    ;[a, b] = await Promise.all([startReplica("a", url), startReplica("b", url)])
  })
  afterAll(async () => {
    for (const replica of [a, b]) replica?.child.kill("SIGKILL")
    await observer?.end()
    await server?.stop()
  })

  const runs = async () =>
    (
      await observer.query<{ slot: string; replica: string }>("SELECT slot, replica FROM replica_runs ORDER BY slot")
    ).rows.map((row) => ({ slot: Number(row.slot), replica: row.replica }))
  const statusOf = (results: Array<{ status: string; reason?: string }>) => results.map((r) => r.reason ?? r.status)

  it("runs each of 20 slots once across both, with their clocks a little apart", async () => {
    for (let n = 0; n < 20; n++) {
      const slot = slotAt(n)
      await Promise.all([a.beat(slot, slot + 1_000), b.beat(slot, slot + 1_700)])
    }
    const ran = await runs()
    expect(ran.map((run) => run.slot)).toEqual(Array.from({ length: 20 }, (_, n) => slotAt(n)))
    expect(new Set(ran.map((run) => run.replica)).size).toBeGreaterThan(0)
  })

  it("after one is SIGKILLed mid-run, refuses its slot and the next while its lease lives, then runs on the other", async () => {
    const hung = slotAt(HANG)
    void a.beat(hung, hung + 1_000)
    await waitFor(async () => (await runs()).some((run) => run.slot === hung), "replica a's run of the hang slot")
    a.child.kill("SIGKILL")
    expect(statusOf(await b.beat(hung, hung + 1_700))).toEqual(["slot taken"])
    // a's lease: its claim's now + the 10 s timeout + 1 minute; the next slot still finds it held, and says so.
    expect(statusOf(await b.beat(slotAt(HANG + 1), slotAt(HANG + 1) + 1_700))).toEqual(["lease held"])
    expect(statusOf(await b.beat(slotAt(HANG + 2), slotAt(HANG + 2) + 1_700))).toEqual(["ran"])
    const ran = (await runs()).filter((run) => run.slot >= hung)
    expect(ran).toEqual([
      { slot: hung, replica: "a" },
      { slot: slotAt(HANG + 2), replica: "b" },
    ])
  })

  it("while the server is down, each run logs one line and runs nothing; once it is back, runs resume without a restart", async () => {
    await server.pause()
    const down = [slotAt(HANG + 3), slotAt(HANG + 4)]
    for (const slot of down) expect(statusOf(await b.beat(slot, slot + 1_700))).toEqual(["claim failed"])
    // The lines come over the replica's stdout, the answers over IPC: wait for the lines, not for wall time.
    const lines = () =>
      b.lines.filter((line) => line.message === "job.run" && down.includes(Date.parse(line.slot as string)))
    await waitFor(async () => lines().length >= down.length, "the replica's job.run lines for the down slots")
    expect(lines().map((line) => line.reason)).toEqual(["claim failed", "claim failed"])
    await server.resume()
    for (let n = HANG + 5; n < HANG + 8; n++) {
      expect(statusOf(await b.beat(slotAt(n), slotAt(n) + 1_700))).toEqual(["ran"])
    }
    const ran = await runs()
    const slots = ran.map((run) => run.slot)
    expect(new Set(slots).size).toBe(slots.length)
    expect(slots.filter((slot) => slot > slotAt(HANG + 2))).toEqual([
      slotAt(HANG + 5),
      slotAt(HANG + 6),
      slotAt(HANG + 7),
    ])
  })
})
