import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { POSTGRES_URL_ENV } from "./postgres-server.ts"

const root = path.join(import.meta.dirname, "../..")
const reports = mkdtempSync(path.join(tmpdir(), "slotwise-exit-status-"))
const WITHIN_MS = 120_000

interface Run {
  status: number | null
  output: string
}

/** A command in the checkout, in a child process: its exit status and everything it printed. */
function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${args.join(" ")} did not end within ${WITHIN_MS} ms:\n${output}`))
    }, WITHIN_MS)
    child.once("exit", (status) => {
      clearTimeout(timer)
      resolve({ status, output })
    })
  })
}

/**
 * `vitest run --project node` on the given fixtures alone (test/node/exit-status/), as a clean clone runs it:
 * the global setup starts the PostgreSQL from npm. It writes its JSON report where `.ci/run` would read one.
 */
async function runFixtures(name: string, fixtures: string[]): Promise<Run & { report: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, SLOTWISE_EXIT_STATUS_FIXTURES: "1", FORCE_COLOR: "0" }
  delete env[POSTGRES_URL_ENV]
  delete env.CI
  const report = path.join(reports, `${name}.json`)
  const files = fixtures.map((fixture) => `test/node/exit-status/${fixture}.fixture.ts`)
  const args = ["node_modules/vitest/vitest.mjs", "run", "--project", "node", "--reporter=default"]
  return { ...(await run([...args, "--reporter=json", `--outputFile=${report}`, ...files], env)), report }
}

const readReport = (file: string) => run(["scripts/check/test-report.ts", file])

afterAll(() => rmSync(reports, { recursive: true, force: true }))

describe("npm test's exit status and .ci/run's report check, with the Node project's PostgreSQL from npm", () => {
  it("are non-zero when a test fails or a file cannot load, and zero when every test passes", async () => {
    const [failing, unloadable, passing] = await Promise.all([
      runFixtures("failing", ["passes", "fails"]),
      runFixtures("unloadable", ["passes", "cannot-load"]),
      runFixtures("passing", ["passes"]),
    ])
    expect(failing.output).toMatch(/1 failed/)
    expect(failing.status, failing.output).toBe(1)
    expect(unloadable.output).toMatch(/no-such-module/)
    expect(unloadable.status, unloadable.output).toBe(1)
    expect(passing.output).toMatch(/1 passed/)
    expect(passing.status, passing.output).toBe(0)

    const [failingReport, unloadableReport, passingReport, missingReport] = await Promise.all([
      readReport(failing.report),
      readReport(unloadable.report),
      readReport(passing.report),
      readReport(path.join(reports, "never-written.json")),
    ])
    expect(failingReport).toMatchObject({ status: 1, output: expect.stringMatching(/1 failed tests.*red/) })
    expect(unloadableReport).toMatchObject({ status: 1, output: expect.stringMatching(/1 failed files: red/) })
    expect(passingReport).toEqual({ status: 0, output: "tests: 1 passed, 0 failed, 0 skipped\n" })
    expect(missingReport).toMatchObject({ status: 1, output: expect.stringMatching(/no report/) })
    expect(JSON.parse(readFileSync(passing.report, "utf8"))).toMatchObject({ numPassedTests: 1, success: true })
  })
})
