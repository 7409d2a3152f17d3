import { byId } from "./dom.ts"

/** How often the dashboard refreshes itself while auto-refresh is on and the tab is visible. */
export const AUTO_REFRESH_MS = 10_000

/**
 * The auto-refresh toggle: off by default; while on, `refresh` runs every AUTO_REFRESH_MS, never
 * two at once, and not at all while the tab is hidden (it runs at once when the tab shows again).
 * Answers a function that turns it off.
 */
export function initAutoRefresh(refresh: () => Promise<unknown>): () => void {
  const toggle = byId<HTMLInputElement>("auto-refresh")
  toggle.checked = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let running = false
  const stop = () => {
    clearTimeout(timer)
    timer = undefined
  }
  const schedule = () => {
    stop()
    if (toggle.checked && !document.hidden) timer = setTimeout(tick, AUTO_REFRESH_MS)
  }
  const tick = async () => {
    if (running) return
    running = true
    try {
      await refresh()
    } finally {
      running = false
      schedule()
    }
  }
  const changed = () => {
    byId("auto-refresh-label").dataset.on = String(toggle.checked)
    schedule()
  }
  toggle.addEventListener("change", changed)
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) stop()
    else if (toggle.checked) void tick()
  })
  return () => {
    toggle.checked = false
    changed()
  }
}
