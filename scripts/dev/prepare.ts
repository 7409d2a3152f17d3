import { DEV_VARS, ensureAdminToken } from "./dev-vars.ts"
import { say } from "./log.ts"
import { runWrangler } from "./wrangler.ts"

export interface DevContext {
  port: number
  /** The admin route's bearer token, once the .dev.vars step has run. */
  adminToken?: string
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

export const adminToken: PrepareStep = {
  name: `admin token in ${DEV_VARS}`,
  run: async (ctx) => {
    const { token, created } = await ensureAdminToken()
    ctx.adminToken = token
    say(created ? `created ${DEV_VARS} with a random ADMIN_TOKEN` : `using the ADMIN_TOKEN in ${DEV_VARS}`)
  },
}

/** The hook point: steps run in this order before `wrangler dev` starts. */
export const prepareSteps: PrepareStep[] = [adminToken, applyMigrations]

export async function prepare(steps: readonly PrepareStep[], ctx: DevContext): Promise<void> {
  for (const step of steps) {
    say(`${step.name}...`)
    await step.run(ctx)
  }
}
