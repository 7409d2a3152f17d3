import { HEARTBEAT_CRON } from "../jobs/index.ts"

/** The job init writes, which `wrangler dev` and the heartbeat run at once. */
export const EXAMPLE_JOB = "example.hello"

/** The code of create-cloudflare's hello-world Worker (TypeScript), comments and spacing aside. */
const HELLO_WORLD = [
  "export default {",
  "  async fetch(request, env, ctx): Promise<Response> {",
  '    return new Response("Hello World!");',
  "  },",
  "} satisfies ExportedHandler<Env>;",
].join("\n")

// Comments and whitespace out, one kind of quote: two spellings of the same code compare equal.
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/[^\n]*/g, "")
    .replace(/\s+/g, "")
    .replaceAll("'", '"')

/** Whether the entry is create-cloudflare's untouched hello world, the one shape init rewrites. */
export const isHelloWorld = (entry: string) => code(entry) === code(HELLO_WORLD)

/** Whether the entry already imports slotwise and exports the stream class: a second run leaves it alone. */
export const isWired = (entry: string, className: string) =>
  /from\s+["']slotwise["']/.test(entry) && new RegExp(`export\\s+class\\s+${className}\\b`).test(entry)

/** The file's own comment block at its top (create-cloudflare's welcome), which the wired entry keeps. */
const leadingComments = (entry: string) => /^(?:\s*(?:\/\*[\s\S]*?\*\/|\/\/[^\n]*))*\s*/.exec(entry)?.[0] ?? ""

const IMPORTS = (jobs: string, consumers: string) => [
  'import { Jobs, Schedules } from "slotwise";',
  'import { admin } from "slotwise/admin";',
  `import { consumers } from "${consumers}";`,
  `import { jobs } from "${jobs}";`,
]

/** create-cloudflare's hello world with slotwise wired in: its fetch answers as before, /admin is slotwise's. */
export function wiredHelloWorld(entry: string, className: string, specifiers: { jobs: string; consumers: string }) {
  return `${leadingComments(entry)}import { Hono } from "hono";
${IMPORTS(specifiers.jobs, specifiers.consumers).join("\n")}

// slotwise's jobs, and the watchdog that re-arms a stream whose alarm was lost.
const workerJobs = Jobs.registry([...jobs, Schedules.watchdog]);
// slotwise's admin and dashboard, behind Authorization: Bearer <ADMIN_TOKEN>.
const ops = new Hono<{ Bindings: Env }>().route("/admin", admin({ jobs: workerJobs, consumers }));

// One Durable Object per schedule stream, delivering to the consumers (wrangler binds it as SCHEDULES).
export class ${className} extends Schedules.durableObject({ consumers }) {}

export default {
	async fetch(request, env, ctx): Promise<Response> {
		const { pathname } = new URL(request.url);
		if (pathname === "/admin" || pathname.startsWith("/admin/")) return ops.fetch(request, env, ctx);
		return new Response("Hello World!");
	},
	// The heartbeat: the "${HEARTBEAT_CRON}" Cron Trigger runs the jobs due in its minute.
	scheduled: Jobs.heartbeat(workerJobs),
} satisfies ExportedHandler<Env>;
`
}

/** What to add by hand to an entry init does not rewrite, as exact lines. */
export function linesToAdd(className: string, specifiers: { jobs: string; consumers: string }): string[] {
  return [
    ...IMPORTS(specifiers.jobs, specifiers.consumers),
    "",
    "const workerJobs = Jobs.registry([...jobs, Schedules.watchdog]);",
    `export class ${className} extends Schedules.durableObject({ consumers }) {}`,
    "",
    `// in the default export (a scheduled() of your own calls it for the "${HEARTBEAT_CRON}" cron):`,
    "scheduled: Jobs.heartbeat(workerJobs),",
    "// and admin on your fetch, through your Hono app or a new one:",
    'app.route("/admin", admin({ jobs: workerJobs, consumers }));',
  ]
}

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

/** Every job the heartbeat runs; a name may appear once. */
export const jobs = Jobs.registry([hello]);
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
