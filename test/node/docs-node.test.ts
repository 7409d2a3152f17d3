import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ContainerProcess, startContainerProcess, waitFor } from "./container-process.ts"
import { packedTarball } from "./packed-package.ts"
import { freshPostgresDatabase } from "./postgres-database.ts"

const root = path.resolve(import.meta.dirname, "../..")
/** The guide that holds the Node steps. */
const GUIDE = "docs/container.md"
/** The URL the guide's PostgreSQL step shows; the test puts its own server's in its place. */
const GUIDE_POSTGRES_URL = "postgres://user:password@127.0.0.1:5432/db"

/** The guide's "## In your own Node project", up to the next heading. */
function nodeSection(): string {
  const guide = readFileSync(path.join(root, GUIDE), "utf8")
  const start = guide.indexOf("\n## In your own Node project\n")
  if (start < 0) throw new Error(`${GUIDE} has no "## In your own Node project" section`)
  const end = guide.indexOf("\n#", start + 1)
  return guide.slice(start, end < 0 ? undefined : end)
}

/**
 * The section's fenced blocks, in order, with their language; the TypeScript project's tsconfig (a jsonc block) is
 * left out, as `npm run check` compiles the section's code with it (scripts/check/doc-examples.ts).
 */
const blocks = (section: string) =>
  [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .map(([, lang, body]) => ({ lang, body: body as string }))
    .filter(({ lang }) => lang !== "jsonc")

/** A shell block's commands, one a line. */
const commands = (body: string) =>
  body
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")

/** A command that starts the entry: `[NAME=value …] node <file>`, its variables and file. */
function startLine(command: string): { env: Record<string, string>; file: string } | undefined {
  const match = /^((?:[A-Z_]+=\S+ )*)node (\S+)$/.exec(command)
  if (match === null) return undefined
  const env = Object.fromEntries(
    (match[1] as string)
      .trim()
      .split(" ")
      .filter((word) => word !== "")
      .map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]),
  )
  return { env, file: match[2] as string }
}

describe("docs/container.md's Node steps, word for word, in an empty folder with the packed package", () => {
  const project = mkdtempSync(path.join(tmpdir(), "slotwise-readme-node-"))
  const started: ContainerProcess[] = []
  let tarball: string
  let postgresUrl: string

  /**
   * Runs one shell block of the section: each command as written, but `npm install slotwise` installs the
   * packed tarball and the guide's PostgreSQL URL is the test server's; the entry is started on a free port.
   */
  async function runBlock(body: string): Promise<ContainerProcess | undefined> {
    let entry: ContainerProcess | undefined
    for (const written of commands(body)) {
      const command = written
        .replace(/^npm install slotwise /, `npm install ${tarball} `)
        .replace(GUIDE_POSTGRES_URL, postgresUrl)
      const start = startLine(command)
      if (start !== undefined) {
        entry = await startContainerProcess([start.file], { cwd: project, env: { ...start.env, PORT: "0" } })
        started.push(entry)
        continue
      }
      try {
        execFileSync("sh", ["-c", command], {
          cwd: project,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          env: {
            ...process.env,
            npm_config_prefer_offline: "true",
            npm_config_audit: "false",
            npm_config_fund: "false",
          },
        })
      } catch (error) {
        const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
        throw new Error(`${GUIDE}'s \`${written}\` failed:\n${stdout}${stderr}`)
      }
    }
    return entry
  }

  const ran = (entry: ContainerProcess | undefined, job: string) =>
    entry?.lines.some((line) => line.message === "job.run" && line.job === job && line.outcome === "ran") ?? false

  const stop = async (entry: ContainerProcess | undefined) => {
    entry?.process.kill("SIGTERM")
    expect(await entry?.exited).toBe(0)
  }

  beforeAll(async () => {
    tarball = await packedTarball()
    postgresUrl = await freshPostgresDatabase()
  }, 600_000)
  afterAll(() => {
    for (const entry of started) entry.process.kill("SIGKILL")
  })

  it("shows the install, the entry file, the start, and the PostgreSQL variant, in that order", () => {
    const shown = blocks(nodeSection())
    expect(shown.map(({ lang }) => lang)).toEqual(["sh", "js", "sh", "", "sh", ""])
    expect(shown[1]?.body.split("\n")[0]).toBe("// main.js")
    expect(
      commands(shown[0]?.body ?? "").filter((command) => command.startsWith("npm install slotwise ")),
    ).toHaveLength(1)
    expect(shown[4]?.body).toContain(GUIDE_POSTGRES_URL)
  })

  it("installs, copies the migrations and runs the job on SQLite", async () => {
    const [install, entryFile, start, output] = blocks(nodeSection())
    await runBlock(install?.body ?? "")
    writeFileSync(path.join(project, "main.js"), entryFile?.body ?? "")
    const entry = await runBlock(start?.body ?? "")
    await waitFor(() => ran(entry, "hello"), "hello's job.run line with outcome ran")
    // The lines the guide shows, in its order, with what varies (times, ids, the port) left out.
    const shown = commands(output?.body ?? "").map((line) => JSON.parse(line) as Record<string, unknown>)
    const message = (line: Record<string, unknown>) => line.message
    expect(entry?.lines.map(message).filter((said) => shown.map(message).includes(said))).toEqual(shown.map(message))
    for (const line of shown) {
      const { url: _, slot: __, runId: ___, ms: ____, ...fixed } = line
      expect(entry?.lines).toContainEqual(expect.objectContaining(fixed))
    }
    expect(existsSync(path.join(project, ".slotwise/slotwise.db"))).toBe(true)
    await stop(entry)
  })

  it("then runs it on PostgreSQL", async () => {
    const postgres = blocks(nodeSection())[4]
    const entry = await runBlock(postgres?.body ?? "")
    expect(entry?.lines.find((line) => line.message === "container.migrated")?.applied).toContain(
      "0001_slotwise_jobs_leases.sql",
    )
    await waitFor(() => ran(entry, "hello"), "hello's job.run line with outcome ran")
    await stop(entry)
  })
})
