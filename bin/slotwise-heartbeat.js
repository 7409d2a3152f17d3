#!/usr/bin/env node
// `npx slotwise-heartbeat [--url URL] [--cron CRON] [--beats N]`: fires the Worker's slotwise heartbeat against a
// running `wrangler dev` at every UTC minute its cron names, as the Cron Trigger does once deployed (--help says more).
import { main } from "./local-heartbeat.js"
import { nodeProblem, refuse, wranglerProblem } from "./preflight.js"

refuse("slotwise-heartbeat", nodeProblem())
refuse("slotwise-heartbeat", wranglerProblem(process.cwd()))
const stop = new AbortController()
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => stop.abort())
process.exit(await main(process.argv.slice(2), { signal: stop.signal }))
