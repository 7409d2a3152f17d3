import { HEARTBEAT_CRON } from "../jobs/handlers/heartbeat.ts"

/** The job init writes, which `wrangler dev` and the heartbeat run at once. */
export const EXAMPLE_JOB = "example.hello"

/** The jobs file init writes beside the entry: one exclusive job each minute, recorded in its lease row. */
export const jobsFile = () => `import { Jobs } from "slotwise";

/** An example: slotwise runs it once a minute, once per slot, and admin shows its runs. Replace it with yours. */
export const hello = Jobs.make({
	name: "${EXAMPLE_JOB}",
	cron: "${HEARTBEAT_CRON}",
	exclusive: true,
	timeout: "30 seconds",
	run: async (slot, ctx) => {
		ctx.log.info("hello from slotwise", { slot: slot.toISOString() });
	},
});

/**
 * Every job the heartbeat runs; a name may appear once. The plan is your Workers plan ("free" or "paid"), declared
 * once: it rides on these jobs into every list built from them, and sets what one heartbeat may do.
 */
export const jobs = Jobs.registry([hello], { plan: "free" });
`

/** The consumers file: none yet (a schedule names one of these; Schedules.consumer declares one). */
export const consumersFile = (typescript: boolean) =>
  typescript
    ? `import type { Consumer } from "slotwise";

/** The consumers a schedule may name: add Schedules.consumer({ name, deliver }) values here. */
export const consumers: Consumer[] = [];
`
    : `/** The consumers a schedule may name: add Schedules.consumer({ name, deliver }) values here. */
export const consumers = [];
`
