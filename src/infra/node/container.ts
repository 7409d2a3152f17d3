import { TIMED_OUT, within } from "../deadline.ts"
import type { Job } from "../jobs/index.ts"
import { describeError, logLine } from "../log.ts"
import { activeTracer } from "../tracing/index.ts"
import { openContainerDatabase } from "./container-database.ts"
import { startMinuteTimer } from "./minute-timer.ts"
import { createRuntime, type Runtime } from "./runtime.ts"
import { type FetchApp, listen } from "./server.ts"
import { type ContainerSettings, containerSettings } from "./settings.ts"
import { unrecordedSpans } from "./unrecorded-spans.ts"

/**
 * How long a stop waits for job runs, late releases and requests in flight; past it the process
 * goes anyway, and an abandoned exclusive run's lease expires at its timeout + 1 minute.
 */
export const SHUTDOWN_DEADLINE_MS = 30_000

export interface ContainerOptions extends Partial<ContainerSettings> {
  /** The app's routes, the same Hono app the Worker serves (admin included). */
  app: FetchApp
  /** The jobs fired at every minute boundary and once at start-up: the list shared with the Worker. */
  jobs: readonly Job[]
  /** What jobs and routes read from env besides DB; default the process's environment. */
  vars?: Record<string, string | undefined>
  /** Stop on SIGTERM and SIGINT, then exit (default true). */
  handleSignals?: boolean
}

export interface Container {
  /** Where it serves, e.g. http://127.0.0.1:8787. */
  url: string
  runtime: Runtime
  /**
   * Stops the minute timer and the server, waits (at most SHUTDOWN_DEADLINE_MS) for what is in flight,
   * then has the tracer export its spans (at most SPAN_FLUSH_DEADLINE_MS): an OpenTelemetry SDK's forceFlush.
   */
  stop(): Promise<void>
}

/**
 * The container profile: opens the database (SLOTWISE_DATABASE_URL), applies the migrations,
 * serves the app, and fires the jobs through the heartbeat's beat once at start-up and at every UTC minute
 * boundary, in process (no external cron). Several replicas may share one database: the claim
 * runs each exclusive job's slot once across them. Settings not given are read from
 * `process.env` (containerSettings).
 *
 * @example
 * ```ts
 * // src/main.ts
 * await Container.start({ app: createApp({ jobs, consumers }), jobs })
 * ```
 */
export async function startContainer(options: ContainerOptions): Promise<Container> {
  if (typeof options?.app?.fetch !== "function") throw new TypeError("Container.start: app must have fetch()")
  if (!Array.isArray(options.jobs)) throw new TypeError("Container.start: jobs must be a list of Jobs.make jobs")
  // A database URL given here picks its own default migrations folder, as one in the environment does.
  const url = options.databaseUrl === undefined ? {} : { SLOTWISE_DATABASE_URL: options.databaseUrl }
  const settings = { ...containerSettings({ ...process.env, ...url }), ...definedOnly(options) }
  // The SDK reads its variables from the process's environment, so that is where spans are asked for.
  const unrecorded = unrecordedSpans(process.env)
  if (unrecorded !== undefined) logLine("warn", "container.spans not recorded", unrecorded)
  const database = await openContainerDatabase(settings)
  let runtime: Runtime
  let server: Awaited<ReturnType<typeof listen>>
  try {
    const applied = await database.migrate(settings.migrations)
    if (applied.length > 0) logLine("info", "container.migrated", { applied })
    runtime = createRuntime({ jobs: options.jobs, d1: database.d1, vars: options.vars ?? process.env })
    server = await listen(options.app, runtime.env, runtime.executionContext, settings)
  } catch (error) {
    // A pool left open would keep the process alive after a failed start.
    await database.close().catch(() => {})
    throw error
  }
  const fire = (scheduledTime: number) => void runtime.beat(scheduledTime)
  const timer = startMinuteTimer(fire)
  fire(Date.now())
  logLine("info", "container.listening", { url: server.url, jobs: options.jobs.map((job) => job.name) })

  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      timer.stop()
      const deadline = Date.now() + SHUTDOWN_DEADLINE_MS
      // Requests first: one still being answered may hand work to waitUntil, which the drain then waits for.
      await server.close(SHUTDOWN_DEADLINE_MS)
      // One deadline bounds the whole stop; beats and their late releases ran on while the server closed.
      const abandoned = await runtime.drain(Math.max(0, deadline - Date.now()))
      // Spans a batching SDK still holds would die with the process: export them first.
      await flushSpans()
      await database.close()
      logLine(abandoned > 0 ? "warn" : "info", "container.stopped", { abandoned })
    })()
    return stopping
  }
  if (options.handleSignals ?? true) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        stop().then(
          () => process.exit(0),
          (error) => {
            logLine("error", "container.stop failed", { error: describeError(error) })
            process.exit(1)
          },
        )
      })
    }
  }
  return { url: server.url, runtime, stop }
}

/** How long a stop waits, after the drain, for the tracer to export the spans it holds. */
export const SPAN_FLUSH_DEADLINE_MS = 5_000

async function flushSpans(): Promise<void> {
  const tracer = activeTracer()
  if (tracer.flush === undefined) return
  try {
    const flushed = await within(
      Promise.resolve().then(() => tracer.flush?.()),
      SPAN_FLUSH_DEADLINE_MS,
    )
    if (flushed === TIMED_OUT) logLine("warn", "container.spans not flushed", { deadlineMs: SPAN_FLUSH_DEADLINE_MS })
  } catch (error) {
    logLine("warn", "container.spans not flushed", { error: describeError(error) })
  }
}

const definedOnly = (options: Partial<ContainerSettings>): Partial<ContainerSettings> =>
  Object.fromEntries(
    (["databaseUrl", "port", "hostname", "migrations", "poolMax", "statementTimeoutMs", "connectTimeoutMs"] as const)
      .filter((key) => options[key] !== undefined)
      .map((key) => [key, options[key]]),
  )
