import { say } from "./log.ts"
import { runWrangler } from "./wrangler.ts"

export interface DevContext {
  port: number
}

/** One step that runs, in order, before `wrangler dev` starts; a step that throws stops the runner. */
export interface PrepareStep {
  name: string
  run: (ctx: DevContext) => Promise<void>
}

const MIGRATIONS_TIMEOUT_MS = 120_000

export const applyMigrations: PrepareStep = {
  name: "apply local D1 migrations",
  // With stdin closed wrangler answers its "continue?" prompt with its fallback (yes); CI=true makes that explicit.
  run: () => runWrangler(["d1", "migrations", "apply", "DB", "--local"], MIGRATIONS_TIMEOUT_MS, { CI: "true" }),
}

/**
 * The hook point: add steps here. A ".dev.vars" step belongs before the migrations,
 * a "seed demo data" step after them (it needs the tables).
 */
export const prepareSteps: PrepareStep[] = [applyMigrations]

export async function prepare(steps: readonly PrepareStep[], ctx: DevContext): Promise<void> {
  for (const step of steps) {
    say(`${step.name}...`)
    await step.run(ctx)
  }
}
