import { writeGenerated } from "../generate/index.ts"
import { DEV_VARS, ensureDevVars } from "./dev-vars.ts"
import { say } from "./log.ts"
import { applyLocalMigrations } from "./migrations.ts"

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

export const applyMigrations: PrepareStep = {
  name: "apply local D1 migrations",
  run: applyLocalMigrations,
}

/** The generated modules (the dashboard's bundle, the OpenAPI document), so an edit shows at the next start. */
export const generatedModulesStep: PrepareStep = {
  name: "write the dashboard's bundle and the OpenAPI document",
  run: async () => {
    for (const { file, changed } of await writeGenerated()) if (changed) say(`${file} changed`)
  },
}

export const devVars: PrepareStep = {
  name: `admin token and SLOTWISE_LOCAL in ${DEV_VARS}`,
  run: async (ctx) => {
    const { token, added } = await ensureDevVars()
    ctx.adminToken = token
    if (added.includes("ADMIN_TOKEN")) say(`wrote a random ADMIN_TOKEN to ${DEV_VARS}`)
    else say(`using the ADMIN_TOKEN in ${DEV_VARS}`)
    if (added.includes("SLOTWISE_LOCAL"))
      say(`wrote SLOTWISE_LOCAL=1 to ${DEV_VARS}: billing webhooks may be http://127.0.0.1`)
  },
}

/** The hook point: steps run in this order before `wrangler dev` starts. */
export const prepareSteps: PrepareStep[] = [devVars, generatedModulesStep, applyMigrations]

export async function prepare(steps: readonly PrepareStep[], ctx: DevContext): Promise<void> {
  for (const step of steps) {
    say(`${step.name}...`)
    await step.run(ctx)
  }
}
