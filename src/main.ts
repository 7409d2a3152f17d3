import { Container } from "slotwise/node"
import { createApp } from "./app.ts"
import { consumers } from "./consumers.ts"
import { jobs } from "./jobs.ts"

/**
 * The container profile (`npm run start:node`, the Dockerfile): the same app and the same job list
 * as the Worker (src/isolate.ts), served by a Node process that fires the jobs at every UTC minute
 * boundary in process. No Worker-only jobs (the alarm watchdog) and no schedule streams here.
 */
await Container.start({ app: createApp({ jobs, consumers }), jobs })
