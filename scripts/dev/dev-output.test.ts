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

/** A Worker's console.warn and console.error of a JSON line as wrangler 4 dev writes them (colours kept). */
const ESC = String.fromCharCode(27)
const boxed = (kind: "WARNING" | "ERROR", text: string) => [
  kind === "WARNING"
    ? `${ESC}[33m▲ ${ESC}[43;33m[${ESC}[43;30mWARNING${ESC}[43;33m]${ESC}[0m ${ESC}[1m${text}${ESC}[0m`
    : `${ESC}[31m✘ ${ESC}[41;31m[${ESC}[41;97mERROR${ESC}[41;31m]${ESC}[0m ${ESC}[1m${text}${ESC}[0m`,
  "",
  "",
]

describe("a Worker's warn and error lines under npm start", () => {
  it("are the one plain line the Worker wrote, without wrangler's box and the two blank lines after it", () => {
    const warnLine = '{"level":"warn","message":"heartbeat: not its cron","cron":"5 4 * * *"}'
    const errorLine = '{"level":"error","message":"job.run","outcome":"failed"}'
    const output = new DevOutput()
    const shown = [
      ...boxed("WARNING", warnLine),
      "",
      ...boxed("ERROR", errorLine),
      "[wrangler:info] GET / 200 OK",
    ].flatMap((line) => output.lines(line))
    // The blank line the Worker's own output had between them stays.
    expect(shown).toEqual([warnLine, "", errorLine, "[wrangler:info] GET / 200 OK"])
  })

  it("leaves wrangler's own boxed messages, which are not JSON, as wrangler writes them", () => {
    const output = new DevOutput()
    const own = boxed("WARNING", "Your worker has access to the following bindings:")
    expect(own.flatMap((line) => output.lines(line))).toEqual(own)
  })
})
