import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { NODE_RANGE, nodeProblem, WRANGLER_RANGE, wranglerProblem } from "../../bin/preflight.js"

const root = path.resolve(import.meta.dirname, "../..")
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))

/** A Worker folder whose node_modules holds a wrangler of this version. */
function workerWith(wrangler: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "slotwise-preflight-"))
  mkdirSync(path.join(dir, "node_modules/wrangler"), { recursive: true })
  writeFileSync(path.join(dir, "node_modules/wrangler/package.json"), JSON.stringify({ version: wrangler }))
  mkdirSync(path.join(dir, "src"))
  return dir
}

/** Runs a bin of this repository as a process in `cwd`, answering its exit status and stderr. */
function bin(name: string, args: string[], cwd: string) {
  try {
    execFileSync(process.execPath, [path.join(root, "bin", name), ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] })
    return { code: 0, stderr: "" }
  } catch (error) {
    const failed = error as { status: number; stderr: Buffer }
    return { code: failed.status, stderr: failed.stderr.toString() }
  }
}

describe("the versions slotwise's commands check first", () => {
  it("are package.json's: engines.node and the wrangler peer", () => {
    expect(NODE_RANGE).toBe(manifest.engines.node)
    expect(WRANGLER_RANGE).toBe(manifest.peerDependencies.wrangler)
  })

  it("name the Node.js to install where this one is older than engines.node", () => {
    expect(nodeProblem("20.20.2")).toBe(
      `slotwise needs Node.js ${NODE_RANGE} (as wrangler's current releases do) and this is Node.js 20.20.2: ` +
        "install Node.js 22.12.0 or newer (Node.js 20 is past its end of life)",
    )
    expect(nodeProblem("22.11.0")).toMatch(/this is Node\.js 22\.11\.0: install Node\.js 22\.12\.0 or newer/)
    expect(nodeProblem("22.12.0")).toBeUndefined()
    expect(nodeProblem("24.3.0")).toBeUndefined()
  })

  it("name the upgrade where the Worker's wrangler (its node_modules, or a parent's) is older than the peer range", () => {
    const old = workerWith("4.86.0")
    expect(wranglerProblem(path.join(old, "src"))).toBe(
      `slotwise needs wrangler ${WRANGLER_RANGE} and ${path.join(old, "node_modules/wrangler")} is wrangler 4.86.0, ` +
        "whose workerd refuses the compatibility dates slotwise is tested on: " +
        "npm install -D wrangler@latest @cloudflare/workers-types@latest",
    )
    expect(wranglerProblem(workerWith("4.156.0"))).toMatch(/is wrangler 4\.156\.0/)
    expect(wranglerProblem(workerWith("4.156.2"))).toBeUndefined()
    expect(wranglerProblem(workerWith("5.0.0"))).toMatch(/is wrangler 5\.0\.0/)
    expect(wranglerProblem(mkdtempSync(path.join(tmpdir(), "slotwise-no-wrangler-")))).toBeUndefined()
  })

  it("stop `slotwise init` and `slotwise-heartbeat` with that line and status 1, before they do anything", () => {
    const old = workerWith("4.86.0")
    for (const [name, args, command] of [
      ["slotwise.js", ["init"], "slotwise init"],
      ["slotwise-heartbeat.js", ["--beats", "1"], "slotwise-heartbeat"],
    ] as const) {
      const refused = bin(name, [...args], old)
      expect(refused.code, name).toBe(1)
      expect(refused.stderr, name).toMatch(new RegExp(`^${command}: slotwise needs wrangler .* is wrangler 4\\.86\\.0`))
    }
    expect(bin("slotwise.js", ["--help"], old).code).toBe(0)
    const none = mkdtempSync(path.join(tmpdir(), "slotwise-no-wrangler-"))
    expect(bin("slotwise.js", ["init"], none).stderr).toContain(
      `slotwise init: wrangler is not installed here: npm install -D wrangler@${WRANGLER_RANGE} ` +
        `@cloudflare/workers-types@${manifest.peerDependencies["@cloudflare/workers-types"]}`,
    )
    expect(bin("slotwise.js", ["deploy"], old)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown command "deploy"/),
    })
  })
})
