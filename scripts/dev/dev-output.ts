import { stripVTControlCharacters } from "node:util"

/** wrangler dev's warning that it does not fire crons; npm start does, so it says so right after. */
const SCHEDULED_WARNING = "Scheduled Workers are not automatically triggered"
/** The warning's last line; anything from wrangler's next message on also ends it. */
const WARNING_END = "For more details"

export const HEARTBEAT_NOTE =
  "[dev] npm start fires them: the heartbeat (* * * * *) now and at every UTC minute, as `npx slotwise-heartbeat` does"

/**
 * A Worker's console.warn or console.error as wrangler dev shows it: its logger's "▲ [WARNING]" or
 * "✘ [ERROR]" box (wrangler's own warnings' form) around the line, then two blank lines.
 */
const BOXED = /^(?:▲ \[WARNING\]|✘ \[ERROR\]) (\{.*\})$/
/** The blank lines wrangler writes after each boxed message. */
const BOX_BLANKS = 2

/** The JSON line inside a box, when it is one (slotwise's log lines are): wrangler's own boxed messages are not. */
function unboxed(line: string): string | undefined {
  // wrangler colours its boxes even into a pipe.
  const json = BOXED.exec(stripVTControlCharacters(line))?.[1]
  if (json === undefined) return undefined
  try {
    return typeof JSON.parse(json) === "object" ? json : undefined
  } catch {
    return undefined
  }
}

/**
 * Passes wrangler dev's output through, line by line: a Worker's warn or error JSON line as the one
 * plain line it wrote (wrangler boxes it, with two blank lines after), and npm start's own note once
 * wrangler's warning about scheduled Workers has been printed.
 */
export class DevOutput {
  private warned = false
  private blanksToDrop = 0

  lines(line: string): string[] {
    const json = unboxed(line)
    if (json !== undefined) {
      this.blanksToDrop = BOX_BLANKS
      return [json]
    }
    if (this.blanksToDrop > 0 && line === "") {
      this.blanksToDrop -= 1
      return []
    }
    this.blanksToDrop = 0
    return this.noted(line)
  }

  private noted(line: string): string[] {
    if (line.includes(SCHEDULED_WARNING)) {
      this.warned = true
      return [line]
    }
    if (!this.warned) return [line]
    if (line.includes(WARNING_END)) {
      this.warned = false
      return [line, HEARTBEAT_NOTE]
    }
    if (/^\s*(⎔|\[wrangler)/.test(line)) {
      this.warned = false
      return [HEARTBEAT_NOTE, line]
    }
    return [line]
  }
}
