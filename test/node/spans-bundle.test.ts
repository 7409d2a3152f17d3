import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import path from "node:path"
import { build } from "esbuild"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bundleContainer } from "../../scripts/container/bundle.ts"
import { cachedProject } from "./cached-project.ts"
import { type ContainerProcess, startContainerProcess, waitFor } from "./container-process.ts"
import { freshFileUrl } from "./engines.ts"

const root = path.resolve(import.meta.dirname, "../..")
const lockfile = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"))
/** npm's latest @opentelemetry/sdk-trace-node when this was written (3.x needs Node 22.15): what `npm install` gives a user. */
const SDK_VERSION = "2.12.1"

/** The application's tracing as a user of the 2.x SDK writes it, loaded with `node --import` before the app. */
const TRACING = `import { NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node"
// Each ended span as one JSON line, beside the container's own lines.
const exporter = {
  export(spans, done) {
    for (const span of spans) console.log(JSON.stringify({ message: "test.span", name: span.name, attributes: span.attributes }))
    done({ code: 0 })
  },
  shutdown: async () => {},
}
new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register()
`

/**
 * A user's Node project: the SDK as npm installs it today (npm adds the @opentelemetry/api it accepts,
 * below 1.10) and the SQLite driver the bundle keeps external; installed once, kept between runs.
 */
const userProject = () =>
  cachedProject("otel-sdk", {
    "package.json": JSON.stringify({
      private: true,
      type: "module",
      dependencies: {
        "@opentelemetry/sdk-trace-node": SDK_VERSION,
        "@libsql/client": lockfile.packages["node_modules/@libsql/client"].version,
      },
    }),
    "tracing.mjs": TRACING,
  })

const versionIn = (dir: string, name: string) =>
  JSON.parse(readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")).version as string

describe("the container bundle beside the OpenTelemetry SDK 2.x a user installs", () => {
  let project: string
  let run: string
  const started: ContainerProcess[] = []
  /** The bundle, started in the user's project as `node [--import ./tracing.mjs] <bundle>`. */
  const start = async (env: Record<string, string>, withSdk: boolean) => {
    const bundle = path.relative(project, path.join(run, "main.js"))
    const child = await startContainerProcess(withSdk ? ["--import", "./tracing.mjs", bundle] : [bundle], {
      cwd: project,
      env: {
        SLOTWISE_DATABASE_URL: freshFileUrl(),
        SLOTWISE_MIGRATIONS: path.join(root, "migrations"),
        PORT: "0",
        HOST: "127.0.0.1",
        OTEL_TRACES_EXPORTER: "",
        OTEL_EXPORTER_OTLP_ENDPOINT: "",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
        ...env,
      },
    })
    started.push(child)
    return child
  }
  const warnings = (child: ContainerProcess) =>
    child.lines.filter((line) => line.message === "container.spans not recorded")

  beforeAll(async () => {
    project = userProject()
    // The bundle inside the project, so that it resolves what it keeps external from the project's node_modules.
    run = mkdtempSync(path.join(project, "run-"))
    await bundleContainer(path.join(run, "main.js"))
  }, 300_000)
  afterAll(() => {
    for (const child of started) child.process.kill("SIGKILL")
    rmSync(run, { recursive: true, force: true })
  })

  it("gets the SDK npm installs today, with an @opentelemetry/api other than the repository's, one copy of it", () => {
    expect(versionIn(project, "@opentelemetry/sdk-trace-node")).toBe(SDK_VERSION)
    const api = versionIn(project, "@opentelemetry/api")
    expect(api).not.toBe(lockfile.packages["node_modules/@opentelemetry/api"].version)
    const listed = execFileSync("npm", ["ls", "--all", "--parseable", "@opentelemetry/api"], {
      cwd: project,
      encoding: "utf8",
    })
    expect(listed.trim().split("\n")).toEqual([path.join(project, "node_modules/@opentelemetry/api")])
  })

  it("records the example job's job.run span through the SDK the application registered, and warns of nothing", async () => {
    const child = await start({ OTEL_TRACES_EXPORTER: "otlp" }, true)
    const span = () =>
      child.lines.find((line) => line.message === "test.span" && line.name === "job.run")?.attributes as
        | Record<string, unknown>
        | undefined
    await waitFor(() => span() !== undefined, "a job.run span")
    expect(span()).toMatchObject({ "job.name": "billing.roll-up-usage", "job.outcome": "ran" })
    expect(warnings(child)).toEqual([])
    child.process.kill("SIGTERM")
    expect(await child.exited).toBe(0)
  })

  it("writes one warning line at start, naming the variable and why, when spans are asked for and no SDK is registered", async () => {
    const child = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, false)
    expect(warnings(child)).toEqual([
      {
        level: "warn",
        message: "container.spans not recorded",
        askedBy: "OTEL_EXPORTER_OTLP_ENDPOINT",
        reason: expect.stringMatching(/^no OpenTelemetry tracer provider is registered: register the SDK before/),
      },
    ])
  })

  it("writes no warning when spans are not asked for", async () => {
    const child = await start({}, false)
    await waitFor(() => child.lines.some((line) => line.message === "job.run"), "a job.run line")
    expect(warnings(child)).toEqual([])
    expect(child.lines.some((line) => line.message === "test.span")).toBe(false)
  })

  it("names the other copy when the SDK registered through an @opentelemetry/api slotwise's copy cannot read", async () => {
    // The check with a copy of the repository's API inside it, as the bundle held one before: two copies at once.
    await build({
      stdin: {
        contents: `import { unrecordedSpans } from ${JSON.stringify(path.join(root, "src/infra/node/unrecorded-spans.ts"))}
console.log(JSON.stringify(unrecordedSpans({ OTEL_TRACES_EXPORTER: "otlp" })))`,
        resolveDir: root,
      },
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "warning",
      outfile: path.join(run, "two-copies.mjs"),
    })
    const answer = execFileSync(process.execPath, ["--import", "./tracing.mjs", path.join(run, "two-copies.mjs")], {
      cwd: project,
      encoding: "utf8",
    })
    expect(JSON.parse(answer)).toEqual({
      askedBy: "OTEL_TRACES_EXPORTER",
      reason: expect.stringContaining(
        `registered through @opentelemetry/api ${versionIn(project, "@opentelemetry/api")}, a copy slotwise's`,
      ),
    })
  })
})
