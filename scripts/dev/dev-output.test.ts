import { describe, expect, it } from "vitest"
import { DevOutput, HEARTBEAT_NOTE } from "./dev-output.ts"

/** wrangler 4's dev output around its warning (colours stripped). */
const WARNING = [
  "▲ [WARNING] Scheduled Workers are not automatically triggered during local development.",
  "",
  "  To manually trigger a scheduled event, run:",
  '    curl "http://127.0.0.1:8787/cdn-cgi/local/scheduled"',
  "  For more details, see https://developers.cloudflare.com/workers/configuration/cron-triggers/#test-cron-triggers-locally",
  "",
  "⎔ Starting local server...",
]

describe("npm start's pass over wrangler dev's output", () => {
  it("follows wrangler's warning about scheduled Workers with its own line saying npm start fires them", () => {
    const output = new DevOutput()
    const shown = WARNING.flatMap((line) => output.lines(line))
    expect(shown).toEqual([...WARNING.slice(0, 5), HEARTBEAT_NOTE, ...WARNING.slice(5)])
  })

  it("still adds the line when the warning ends without its link, and passes everything else unchanged", () => {
    const output = new DevOutput()
    const shown = [WARNING[0] as string, "[wrangler:info] Ready on http://127.0.0.1:8787", "done"].flatMap((line) =>
      output.lines(line),
    )
    expect(shown).toEqual([WARNING[0], HEARTBEAT_NOTE, "[wrangler:info] Ready on http://127.0.0.1:8787", "done"])
    expect(new DevOutput().lines("[wrangler:info] Ready")).toEqual(["[wrangler:info] Ready"])
  })
})
