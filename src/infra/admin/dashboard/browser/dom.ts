/** Browser code: building DOM from data (text nodes and attribute values only) and formatting times. */
export const DOM = String.raw`
const TOKEN_KEY = "slotwise.admin.token"
const PAGE_SIZE = 50
const BASE = location.pathname.replace(/\/+$/, "")
const $ = (testid) => document.querySelector('[data-testid="' + testid + '"]')
const enc = encodeURIComponent

// DOM: strings become text nodes; attribute values are set, never parsed.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? "" : value)
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child)
  return node
}
function button(label, testid, onClick, attrs) {
  const node = el("button", Object.assign({ type: "button", "data-testid": testid }, attrs), label)
  node.addEventListener("click", onClick)
  return node
}
const badge = (text, testid, kind) => el("span", { class: "badge " + (kind || text), "data-testid": testid }, text)
const emptyRow = (columns, text) => el("tr", {}, el("td", { colspan: columns, class: "none" }, text))

// Formatting: every time in UTC and in the viewer's local time.
const pad = (n) => String(n).padStart(2, "0")
const localDay = (d) => d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate())
function when(ms) {
  if (ms === null || ms === undefined) return el("span", { class: "none" }, "—")
  const d = new Date(ms)
  const iso = d.toISOString()
  const local = (localDay(d) === iso.slice(0, 10) ? "" : localDay(d) + " ") + pad(d.getHours()) + ":" + pad(d.getMinutes())
  const utc = iso.slice(0, 19).replace("T", " ") + " UTC"
  // Tables show the local time on a line of its own (CSS hides the separator there).
  return el(
    "time",
    { datetime: iso, title: relative(ms) },
    el("span", {}, utc),
    el("span", { class: "sep" }, " · "),
    el("span", { class: "local" }, local + " local"),
  )
}
function span(seconds) {
  if (seconds < 90) return seconds + " s"
  if (seconds < 5400) return Math.round(seconds / 60) + " min"
  if (seconds < 129600) return Math.round(seconds / 3600) + " h"
  return Math.round(seconds / 86400) + " d"
}
function relative(ms) {
  const seconds = Math.round((ms - Date.now()) / 1000)
  return seconds >= 0 ? "in " + span(seconds) : span(-seconds) + " ago"
}
function duration(ms) {
  if (ms % 86400000 === 0) return ms / 86400000 + " d"
  if (ms % 3600000 === 0) return ms / 3600000 + " h"
  if (ms % 60000 === 0) return ms / 60000 + " min"
  if (ms % 1000 === 0) return ms / 1000 + " s"
  return ms + " ms"
}
function timing(t) {
  if (t.kind === "at") return ["at ", when(t.atMs)]
  if (t.kind === "after") return "after " + duration(t.afterMs)
  if (t.kind === "every") return "every " + duration(t.everyMs)
  if (t.kind === "cron") return [el("span", { class: "mono" }, t.cron), el("div", { class: "sub" }, t.timezone || "UTC")]
  return JSON.stringify(t)
}
`
