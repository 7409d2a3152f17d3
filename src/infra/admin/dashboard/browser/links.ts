import { selectSchedule } from "./detail.ts"
import { byId } from "./dom.ts"
import { openRuns } from "./jobs.ts"
import { openStream } from "./schedules.ts"

/**
 * Opens what the page's address names after `#`, as alert notices link to it (alerts/notice.ts): `job=<name>` its
 * runs, `stream=<name>` its schedules, with `&schedule=<id>` that schedule's events, `health` the health panel.
 */
export async function followLink(hash = location.hash): Promise<void> {
  const at = new URLSearchParams(hash.replace(/^#/, ""))
  const job = at.get("job")
  const stream = at.get("stream")
  const schedule = at.get("schedule")
  let target: HTMLElement | null = null
  if (job) {
    openRuns(job)
    target = byId("runs-panel")
  } else if (stream) {
    openStream(stream)
    if (schedule) await selectSchedule(stream, schedule)
    target = byId(schedule ? "events-panel" : "schedules-panel")
  } else if (at.has("health")) target = byId("health")
  target?.scrollIntoView({ block: "start" })
}
