import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bundleContainer, CONTAINER_EXTERNALS } from "../../scripts/container/bundle.ts"
import { cachedProject } from "./cached-project.ts"
import { type ContainerProcess, startContainerProcess, waitFor } from "./container-process.ts"
import { freshFileUrl } from "./engines.ts"

const root = path.resolve(import.meta.dirname, "../..")

/** The Dockerfile's runtime stage, one instruction a line (continuations joined). */
function runtimeStage(): string[] {
  const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8")
  const start = dockerfile.search(/^FROM \S+ AS runtime$/m)
  if (start < 0) throw new Error("the Dockerfile has no runtime stage")
  return dockerfile
    .slice(start)
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => /^[A-Z]+ /.test(line))
}

/**
 * The runtime stage's install, as far as this machine can build it without a base image: the files
 * its first COPY takes from the repository, then its npm RUN lines, less the cache clean (which would
 * empty this machine's npm cache, not an image's).
 */
function runtimeInstall(): { files: Record<string, string>; install: string } {
  const stage = runtimeStage()
  const copy = stage.find((line) => line.startsWith("COPY package.json"))
  if (copy === undefined) throw new Error("the runtime stage copies no package.json")
  const sources = copy.split(" ").slice(1, -1)
  const files = Object.fromEntries(sources.map((file) => [file, readFileSync(path.join(root, file), "utf8")]))
  const install = stage
    .filter((line) => line.startsWith("RUN npm "))
    .map((line) => line.slice("RUN ".length).replace(/\s*&&\s*npm cache clean --force/, ""))
    .join(" && ")
  return { files, install }
}

describe("the image's runtime stage (its npm install, run here without Docker)", () => {
  let app: string
  let run: string
  let child: ContainerProcess | undefined

  beforeAll(async () => {
    const { files, install } = runtimeInstall()
    expect(install).toMatch(/^npm ci --omit=dev/)
    app = cachedProject("image-runtime", files, install)
    run = mkdtempSync(path.join(app, "run-"))
    await bundleContainer(path.join(run, "main.js"))
    cpSync(path.join(root, "migrations"), path.join(run, "migrations"), { recursive: true })
  }, 300_000)
  afterAll(() => {
    child?.process.kill("SIGKILL")
    rmSync(run, { recursive: true, force: true })
  })

  it("installs every package the bundle keeps external", () => {
    const missing = CONTAINER_EXTERNALS.filter(
      (name) => !existsSync(path.join(app, "node_modules", name, "package.json")),
    )
    expect(missing).toEqual([])
  })

  it("runs the bundle: it migrates, listens and runs the example job", async () => {
    child = await startContainerProcess([path.join(run, "main.js")], {
      cwd: run,
      env: { SLOTWISE_DATABASE_URL: freshFileUrl(), PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production" },
    })
    await waitFor(
      () => child?.lines.some((line) => line.message === "job.run" && line.outcome === "ran") ?? false,
      "a job.run line with outcome ran",
    )
    child.process.kill("SIGTERM")
    expect(await child.exited).toBe(0)
  })
})
