import { execFileSync } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { buildSync } from "esbuild"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../..")
const engine = path.join(root, "src/infra/migrations")
const shipped = readdirSync(engine).filter((file) => file.endsWith(".sql"))
const twins = path.join(engine, "postgres")

/** The package as npm installs it (bin/ beside dist/migrations/), and an app folder to run the real bin in. */
function installed() {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-bin-"))
  mkdirSync(path.join(dir, "pkg/bin"), { recursive: true })
  for (const file of ["slotwise-migrations.js", "preflight.js"]) {
    cpSync(path.join(root, "bin", file), path.join(dir, "pkg/bin", file))
  }
  cpSync(path.join(root, "package.json"), path.join(dir, "pkg/package.json"))
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "pkg/node_modules"))
  cpSync(engine, path.join(dir, "pkg/dist/migrations"), { recursive: true })
  // The copy the bin shares with `slotwise init`, as the build writes it (its own imports, atomic-write.ts, with it).
  buildSync({
    entryPoints: [path.join(root, "src/infra/init/migrations.ts")],
    outfile: path.join(dir, "pkg/dist/init/migrations.js"),
    format: "esm",
    platform: "node",
    bundle: true,
    packages: "external",
    logLevel: "warning",
  })
  mkdirSync(path.join(dir, "app"))
  const run = (...args: string[]) => {
    try {
      const stdout = execFileSync(process.execPath, [path.join(dir, "pkg/bin/slotwise-migrations.js"), ...args], {
        cwd: path.join(dir, "app"),
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      })
      return { code: 0, stdout, stderr: "" }
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string }
      return { code: failed.status, stdout: failed.stdout, stderr: failed.stderr }
    }
  }
  const app = (...parts: string[]) => path.join(dir, "app", ...parts)
  return { run, app }
}

describe("npx slotwise-migrations", () => {
  it("answers --help with its usage and creates nothing", () => {
    const { run, app } = installed()
    const { code, stdout } = run("--help")
    expect(code).toBe(0)
    expect(stdout).toMatch(/Usage: .*slotwise-migrations \[--postgres\] \[folder\]/)
    expect(readdirSync(app())).toEqual([])
  })

  it("names in --help the files a run would write into the folder it names, numbered after its newest", () => {
    const { run, app } = installed()
    const last = `${String(shipped.length).padStart(4, "0")}_slotwise_${shipped.at(-1)?.replace(/^\d+_/, "")}`
    expect(run("--help").stdout).toContain(
      `would copy ${shipped.length} into migrations: migrations/0001_slotwise_jobs_leases.sql … migrations/${last}.`,
    )
    mkdirSync(app("db"))
    writeFileSync(app("db", "0041_app.sql"), "CREATE TABLE app (id INTEGER);")
    expect(run("db", "--help").stdout).toContain(`into db: db/0042_slotwise_jobs_leases.sql … db/`)
    expect(run("--postgres", "--help").stdout).toContain(
      `into migrations/postgres: migrations/postgres/0001_slotwise_jobs_leases.sql … migrations/postgres/${last}.`,
    )
    expect(readdirSync(app())).toEqual(["db"])
    run("db")
    expect(run("--help", "db").stdout).toContain(
      `would copy nothing: db holds all ${shipped.length} slotwise migrations.`,
    )
  })

  it("copies the PostgreSQL twins with --postgres, into migrations/postgres by default", () => {
    const { run, app } = installed()
    const { code, stdout } = run("--postgres")
    expect(code).toBe(0)
    expect(stdout.trim().split("\n")).toHaveLength(shipped.length)
    const copied = readdirSync(app("migrations", "postgres")).sort()
    expect(copied).toEqual(
      shipped.map((file, i) => `${String(i + 1).padStart(4, "0")}_slotwise_${file.replace(/^\d+_/, "")}`),
    )
    copied.forEach((file, i) => {
      expect(readFileSync(app("migrations", "postgres", file), "utf8")).toBe(
        readFileSync(path.join(twins, shipped[i] as string), "utf8"),
      )
    })
    expect(readdirSync(app("migrations"))).toEqual(["postgres"])
  })

  it("refuses an unknown flag, naming it, and creates nothing", () => {
    const { run, app } = installed()
    const { code, stderr } = run("--dry-run")
    expect(code).toBe(2)
    expect(stderr).toMatch(/unknown option "--dry-run"/)
    expect(readdirSync(app())).toEqual([])
  })

  it("prints a line per migration added, then one line saying nothing was new", () => {
    const { run, app } = installed()
    writeFileSync(app("0001_app.sql"), "CREATE TABLE app (id INTEGER);")
    const first = run(".")
    expect(first.code).toBe(0)
    expect(first.stdout.trim().split("\n")).toHaveLength(shipped.length)
    expect(first.stdout).toMatch(/added 0002_slotwise_jobs_leases\.sql/)
    const again = run(".")
    expect(again.code).toBe(0)
    expect(again.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`nothing new: .* holds all ${shipped.length} slotwise migrations`)),
    ])
    expect(readdirSync(app()).filter((file) => file.includes("slotwise"))).toHaveLength(shipped.length)
  })

  it("recognises a migration copied under another name by its content, whitespace aside", () => {
    const { run, app } = installed()
    mkdirSync(app("migrations"))
    const [firstShipped] = shipped
    const text = readFileSync(path.join(engine, firstShipped as string), "utf8")
    writeFileSync(app("migrations", "0001_init_jobs.sql"), `${text.replace(/\n/g, "\r\n  ")}\n\n`)
    const { code, stdout } = run()
    expect(code).toBe(0)
    expect(stdout.trim().split("\n")).toHaveLength(shipped.length - 1)
    expect(existsSync(app("migrations", "0002_slotwise_jobs_leases.sql"))).toBe(false)
    expect(readdirSync(app("migrations"))).toHaveLength(shipped.length)
  })
})
