/**
 * The dashboard's browser code, bundled at build time into one inline script (scripts/dashboard/bundle.ts).
 * Data reaches the DOM only as text nodes and attribute values, never as HTML.
 */
import { byId } from "./dom.ts"
import { clearHealth, loadHealth } from "./health.ts"
import { clearJobs, loadJobs } from "./jobs.ts"
import { followLink } from "./links.ts"
import { initAutoRefresh } from "./refresh.ts"
import { clearSchedules, initSchedules, loadSchedules, openStream } from "./schedules.ts"
import { startSession } from "./session.ts"
import { clearStreams, initStreams, loadStreams } from "./streams.ts"

const refreshAll = () => Promise.all([loadHealth(), loadJobs(), loadStreams(), loadSchedules()])

initStreams(openStream)
initSchedules()
const stopAutoRefresh = initAutoRefresh(refreshAll)
byId("jobs-refresh").addEventListener("click", () => void loadJobs())
byId("health-refresh").addEventListener("click", () => void loadHealth())
addEventListener("hashchange", () => void followLink())
startSession(
  () => void refreshAll().then(() => followLink()),
  () => {
    stopAutoRefresh()
    clearHealth()
    clearJobs()
    clearStreams()
    clearSchedules()
  },
)
