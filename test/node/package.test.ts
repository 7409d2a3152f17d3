import { execFileSync } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { unstable_startWorker } from "wrangler"
import { packedTarball } from "./packed-package.ts"

const root = path.resolve(import.meta.dirname, "../..")
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))

/** Runs a command, answering its exit code and output instead of throwing. */
function run(command: string, args: string[], cwd: string) {
  try {
    const stdout = execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string }
    return { code: failed.status, output: `${failed.stdout}${failed.stderr}` }
  }
}

/** A copy of a project under test/package/, with the packed tarball installed as npm installs it for a user. */
function install(project: "worker" | "node", tarball: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `slotwise-${project}-`))
  cpSync(path.join(root, "test/package", project), dir, { recursive: true })
  cpSync(tarball, path.join(dir, "slotwise.tgz"))
  const installed = run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], dir)
  if (installed.code !== 0) throw new Error(`npm install in ${dir} failed:\n${installed.output}`)
  return dir
}

// The package as published: `npm pack` (which builds dist), installed into a Worker and into a Node project.
let worker: string
let node: string
beforeAll(async () => {
  const tarball = await packedTarball()
  worker = install("worker", tarball)
  node = install("node", tarball)
}, 600_000)

describe("the published package", () => {
  it("declares hono and @opentelemetry/api as peers, and the Node profile's packages as optional peers", () => {
    expect(manifest.dependencies ?? {}).not.toHaveProperty("hono")
    expect(manifest.dependencies ?? {}).not.toHaveProperty("@opentelemetry/api")
    expect(manifest.peerDependencies).toMatchObject({ hono: expect.any(String), "@opentelemetry/api": "^1.9.0" })
    for (const name of ["@libsql/client", "@hono/node-server", "pg"]) {
      expect(manifest.dependencies ?? {}).not.toHaveProperty(name)
      expect(manifest.peerDependenciesMeta?.[name]).toEqual({ optional: true })
    }
  })

  it("installs into a Worker with one Hono (the Worker's) and none of the Node profile's packages", () => {
    expect(existsSync(path.join(worker, "node_modules/slotwise/node_modules/hono"))).toBe(false)
    expect(existsSync(path.join(worker, "node_modules/@libsql/client"))).toBe(false)
    expect(existsSync(path.join(worker, "node_modules/@hono/node-server"))).toBe(false)
    expect(existsSync(path.join(worker, "node_modules/pg"))).toBe(false)
  })

  it("is proven on the lowest Hono it declares: the Worker's pin is the peer range's floor", () => {
    const lowest = JSON.parse(readFileSync(path.join(worker, "package.json"), "utf8")).dependencies.hono
    expect(manifest.peerDependencies.hono).toBe(`^${lowest}`)
    expect(JSON.parse(readFileSync(path.join(worker, "node_modules/hono/package.json"), "utf8")).version).toBe(lowest)
  })

  it("type-checks a strict Worker (skipLibCheck off, Workers types only) mounting admin on its own Hono", () => {
    const checked = run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"], worker)
    expect(checked.output).toBe("")
    expect(checked.code).toBe(0)
  })

  it("type-checks a strict Node project (NodeNext, the `node` condition, Node's types only, skipLibCheck off) importing slotwise and slotwise/node", () => {
    const checked = run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"], node)
    expect(checked.output).toBe("")
    expect(checked.code).toBe(0)
  })

  it("gives plain Node the portable API under `slotwise`, never a `cloudflare:` import", () => {
    const imported = run(process.execPath, ["import.mjs"], node)
    expect(imported.output).not.toMatch(/cloudflare:/)
    expect(imported.code).toBe(0)
    expect(JSON.parse(imported.output)).toEqual({ job: "node.import", durableObject: "undefined" })
  })

  it("serves admin mounted on the lowest Hono in workerd, where `slotwise` is the Worker build", async () => {
    // wrangler bundles under the workerd condition: the portable build has no ScheduleStream, and would not start.
    const started = await unstable_startWorker({
      config: path.join(worker, "wrangler.toml"),
      bindings: { ADMIN_TOKEN: { type: "plain_text", value: "lowest-token" } },
      dev: { server: { port: 0 }, inspector: false, persist: false },
    })
    try {
      await started.ready
      const locked = await started.fetch("http://worker/admin/openapi.json")
      await locked.arrayBuffer()
      expect(locked.status).toBe(401)
      const opened = await started.fetch("http://worker/admin/openapi.json", {
        headers: { authorization: "Bearer lowest-token" },
      })
      expect(opened.status).toBe(200)
      expect(await opened.json()).toMatchObject({ openapi: expect.any(String) })
      // The Worker's own route behind the same door, with admin's validation and problem+json answers.
      const greet = (body: unknown) =>
        started.fetch("http://worker/ops/greet", {
          method: "POST",
          headers: { authorization: "Bearer lowest-token", "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      const refused = await greet({ name: 7 })
      expect(refused.status).toBe(400)
      expect(refused.headers.get("content-type")).toBe("application/problem+json")
      expect(await refused.json()).toMatchObject({ status: 400, field: "name", detail: "name: must be a string" })
      const notFound = await greet({ name: "nobody" })
      expect(await notFound.json()).toMatchObject({ status: 404, title: "Not found", field: "name" })
      expect(await (await greet({ name: "ada" })).text()).toBe("hi ada")
    } finally {
      await started.dispose()
    }
  })
})
