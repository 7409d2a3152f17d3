import { chmodSync, cpSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { writeAtomic } from "../../src/infra/init/atomic-write.ts"
import { init } from "../../src/infra/init/cli.ts"
import { planConfig } from "../../src/infra/init/config-plan.ts"
import { entryShape, takenNames } from "../../src/infra/init/entry-shape.ts"
import { editJsonc, readJsonc } from "../../src/infra/init/jsonc.ts"
import { editToml, readToml } from "../../src/infra/init/toml.ts"

const root = path.resolve(import.meta.dirname, "../..")
const c3 = path.join(root, "test/adopter/c3")
const mode = (file: string) => statSync(file).mode & 0o777

/** create-cloudflare's hello world (test/adopter/c3) in a temp folder, with its wrangler.jsonc. */
function helloWorld() {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-init-keeps-"))
  for (const file of ["package.json", "tsconfig.json", ".gitignore", "src", "wrangler.jsonc"]) {
    cpSync(path.join(c3, file), path.join(dir, file), { recursive: true })
  }
  return dir
}

function run(cwd: string) {
  const out: string[] = []
  const code = init([], { cwd, stdout: (line) => out.push(line), stderr: (line) => out.push(line) })
  return { code, output: out.join("\n") }
}

const OWN = {
  database_name: "own",
  database_id: "id-1",
  preview_database_id: "id-preview",
  migrations_dir: "db",
  migrations_table: "own_migrations",
  migrations_pattern: "*.sql",
}

describe("slotwise init keeps every field of the D1 binding it reuses for DB", () => {
  it("in a wrangler.toml", () => {
    const fields = Object.entries(OWN)
      .map(([key, value]) => `${key} = "${value}"`)
      .join("\n")
    const text = `name = "w"\nmain = "src/index.ts"\n\n[[d1_databases]]\nbinding = "OWN"\n${fields}\n`
    const { edits } = planConfig("wrangler.toml", readToml("wrangler.toml", text), undefined)
    const after = readToml("wrangler.toml", editToml("wrangler.toml", text, edits)) as {
      d1_databases: Array<Record<string, string>>
    }
    expect(after.d1_databases).toEqual([
      { binding: "OWN", ...OWN },
      { binding: "DB", ...OWN },
    ])
  })

  it("in a wrangler.jsonc, and in an environment's own list", () => {
    const own = JSON.stringify({ binding: "OWN", ...OWN })
    const staging = JSON.stringify({
      binding: "OWN",
      ...OWN,
      database_id: "id-2",
      migrations_table: "staging_migrations",
    })
    const text = `{\n  "name": "w",\n  "main": "src/index.ts",\n  "d1_databases": [${own}],\n  "env": { "staging": { "d1_databases": [${staging}] } }\n}\n`
    const { edits } = planConfig("wrangler.jsonc", readJsonc("wrangler.jsonc", text), undefined)
    const after = readJsonc("wrangler.jsonc", editJsonc("wrangler.jsonc", text, edits)) as {
      d1_databases: unknown[]
      env: { staging: { d1_databases: unknown[] } }
    }
    expect(after.d1_databases[1]).toEqual({ binding: "DB", ...OWN })
    expect(after.env.staging.d1_databases[1]).toEqual({
      binding: "DB",
      ...OWN,
      database_id: "id-2",
      migrations_table: "staging_migrations",
    })
  })
})

describe("slotwise init's atomic write leaves a file as it found it, apart from its text", () => {
  it("keeps the file's mode: 0600 stays 0600, 0444 stays 0444, a new file gets the usual mode", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "slotwise-atomic-"))
    for (const kept of [0o600, 0o444, 0o755]) {
      const file = path.join(dir, `f-${kept.toString(8)}`)
      writeFileSync(file, "old\n")
      chmodSync(file, kept)
      writeAtomic(file, "new\n")
      expect(readFileSync(file, "utf8")).toBe("new\n")
      expect(mode(file), kept.toString(8)).toBe(kept)
    }
    const fresh = path.join(dir, "fresh")
    writeAtomic(fresh, "x")
    writeFileSync(path.join(dir, "plain"), "x")
    expect(mode(fresh)).toBe(mode(path.join(dir, "plain")))
  })

  it("writes through a symlink, which stays a symlink, and its target keeps its mode", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "slotwise-atomic-"))
    const target = path.join(dir, "secrets", "worker.vars")
    writeAtomic(target, "API_KEY=k\n")
    chmodSync(target, 0o600)
    const link = path.join(dir, ".dev.vars")
    symlinkSync(path.relative(dir, target), link)
    writeAtomic(link, "API_KEY=k\nADMIN_TOKEN=t\n")
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, "utf8")).toBe("API_KEY=k\nADMIN_TOKEN=t\n")
    expect(mode(target)).toBe(0o600)
  })

  it("end to end: a 0600 .dev.vars symlinked elsewhere, a 0444 config, a CRLF config with a BOM", () => {
    const dir = helloWorld()
    const secrets = path.join(dir, "..", `${path.basename(dir)}-secrets.vars`)
    writeFileSync(secrets, "# local only\r\nAPI_KEY=k\r\n")
    chmodSync(secrets, 0o600)
    symlinkSync(secrets, path.join(dir, ".dev.vars"))
    const config = path.join(dir, "wrangler.jsonc")
    writeFileSync(config, `\uFEFF${readFileSync(config, "utf8").replaceAll("\n", "\r\n")}`)
    chmodSync(config, 0o444)
    const done = run(dir)
    expect(done.code, done.output).toBe(0)
    expect(lstatSync(path.join(dir, ".dev.vars")).isSymbolicLink()).toBe(true)
    expect(readFileSync(secrets, "utf8")).toMatch(/^# local only\r\nAPI_KEY=k\r\nADMIN_TOKEN=[0-9a-f]{48}\r\n$/)
    expect(mode(secrets)).toBe(0o600)
    expect(mode(config)).toBe(0o444)
    const after = readFileSync(config, "utf8")
    expect(after.startsWith("\uFEFF/**")).toBe(true)
    expect(after).toContain('"minify": true')
    expect(after.replaceAll("\r\n", "")).not.toContain("\n")
  })
})

describe("slotwise init reads an entry with a real parser", () => {
  const tail = "export default {\n  async fetch(request, env, ctx) {\n    return new Response(page)\n  },\n}\n"

  it("past a regex literal holding a quote", () => {
    const source = `const clean = (s) => s.replace(/"/g, "")\nconst page = clean('"hi"')\n${tail}`
    expect(entryShape(source)).toEqual({ kind: "object", at: source.indexOf("export default"), length: 15 })
  })

  it("past JSX text holding an apostrophe", () => {
    const source = `import { render } from "./render"\nconst page = render(<p>It's working</p>)\n${tail}`
    expect(entryShape(source, "src/index.tsx")).toEqual({
      kind: "object",
      at: source.indexOf("export default"),
      length: 15,
    })
  })

  it("past a template literal with a nested template and a regex in its substitution", () => {
    const source = `const page = \`a \${\`b \${/\`/.source}\`} 'c\`\n${tail}`
    expect(entryShape(source)).toMatchObject({ kind: "object", at: source.indexOf("export default") })
  })

  it("never takes a name in a comment, a string or JSX text for a name the code uses", () => {
    const source = `// uses Jobs\nconst page = <p>admin and jobs</p>\nconst s = "consumers"\n${tail}`
    expect(takenNames(source, "src/index.tsx")).toEqual([])
    expect(takenNames(`const Jobs = 1\n${tail}`)).toEqual(["Jobs"])
  })

  it("end to end: an entry with a regex literal is wired, not left to manual lines", () => {
    const dir = helloWorld()
    const entry = path.join(dir, "src/index.ts")
    writeFileSync(entry, `const quote = /"/g\n${readFileSync(entry, "utf8")}`)
    const done = run(dir)
    expect(done.code, done.output).toBe(0)
    expect(done.output).not.toContain("export default")
    expect(readFileSync(entry, "utf8")).toContain("const worker = {")
  })
})
