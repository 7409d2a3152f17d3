/** wrangler dev's warning that it does not fire crons; npm start does, so it says so right after. */
const SCHEDULED_WARNING = "Scheduled Workers are not automatically triggered"
/** The warning's last line; anything from wrangler's next message on also ends it. */
const WARNING_END = "For more details"

export const HEARTBEAT_NOTE =
  "[dev] npm start fires them: the heartbeat (* * * * *) now and at every UTC minute, as `npx slotwise-heartbeat` does"

/**
 * Passes wrangler dev's output through, line by line, adding npm start's own note once wrangler's
 * warning about scheduled Workers has been printed.
 */
export class DevOutput {
  private warned = false

  lines(line: string): string[] {
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
