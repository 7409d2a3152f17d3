/** The dashboard's stylesheet, inlined in the page (no external assets). */
export const STYLE = `
:root {
  color-scheme: light;
  --ink: #1d2430; --muted: #5f6b7a; --line: #dde2e8; --bg: #f5f7fa; --panel: #fff; --accent: #2457c5;
  --ok: #1f7a3f; --warn: #9a5b00; --bad: #b3261e;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
* { box-sizing: border-box; }
/* Layout rules below set display; hidden must still hide. */
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--ink); }
header {
  position: sticky; top: 0; z-index: 1; display: flex; align-items: center; gap: 16px;
  padding: 10px 20px; background: var(--ink); color: #fff;
}
header h1 { margin: 0; font-size: 16px; font-weight: 600; white-space: nowrap; }
#status {
  flex: 1; min-height: 22px; padding: 2px 10px; border-radius: 4px; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap;
}
#status[data-kind="ok"] { background: #e3f4e8; color: var(--ok); }
#status[data-kind="error"] { background: #fde8e6; color: var(--bad); }
#status[data-kind="busy"] { background: #eef2fb; color: var(--accent); }
main { padding: 14px 16px; display: grid; gap: 14px; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; min-width: 0; }
section h2 { margin: 0 0 8px; font-size: 14px; font-weight: 600; display: flex; gap: 10px; align-items: center; }
section h2 .mono { font-weight: 500; }
.stack { display: grid; gap: 14px; min-width: 0; }
.columns { display: grid; grid-template-columns: 180px minmax(0, 1fr); gap: 14px; align-items: start; }
.scroll { overflow-x: auto; }
.toolbar { display: flex; gap: 8px; align-items: center; margin: 0 0 8px; flex-wrap: wrap; }
.spacer { flex: 1; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 5px 6px; border-bottom: 1px solid var(--line); }
th { font-size: 12px; color: var(--muted); font-weight: 600; white-space: nowrap; }
tbody tr:hover { background: #f9fafc; }
tr[aria-selected="true"] { background: #eef2fb; }
.mono, time, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
time { white-space: nowrap; }
td time .sep { display: none; }
td time .local { display: block; color: var(--muted); }
.name .id { font-weight: 600; max-width: 200px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.sub { color: var(--muted); font-size: 12px; }
.nowrap { white-space: nowrap; }
#stream-open input { width: 100%; }
.none { color: var(--muted); }
.error-text { color: var(--bad); }
.wrap, .job-name { overflow-wrap: anywhere; }
td.name { max-width: 260px; overflow-wrap: anywhere; }
.clamp { overflow-wrap: anywhere; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden; max-width: 320px; }
.error {
  color: var(--bad); min-width: 130px; max-width: 240px; overflow-wrap: anywhere; font-size: 12px;
  display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden;
}
.actions { white-space: nowrap; text-align: right; }
.actions button + button { margin-left: 4px; }
.actions.grid { display: grid; grid-template-columns: auto auto; gap: 4px; justify-content: end; }
.actions.grid button { padding: 3px 7px; }
.actions.grid button + button { margin-left: 0; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 120px; overflow: auto; }
button {
  font: inherit; font-size: 12px; padding: 3px 9px; border: 1px solid #b9c2cf; border-radius: 4px;
  background: #fff; color: var(--ink); cursor: pointer;
}
button:hover:not(:disabled) { border-color: var(--accent); color: var(--accent); }
button:disabled { opacity: 0.45; cursor: default; }
header button { background: transparent; color: #fff; border-color: #6b7688; }
header button:hover:not(:disabled) { color: #fff; border-color: #fff; }
button.danger:hover:not(:disabled) { border-color: var(--bad); color: var(--bad); }
input, select { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid #b9c2cf; border-radius: 4px; }
ul.streams { list-style: none; margin: 0 0 8px; padding: 0; max-height: 520px; overflow: auto; }
ul.streams button {
  width: 100%; text-align: left; border: 0; border-radius: 4px; padding: 4px 8px; font-family: ui-monospace, monospace;
  overflow: hidden; text-overflow: ellipsis;
}
ul.streams li { margin-bottom: 4px; }
.stream-status { padding: 0 8px; }
.stream-problems { display: flex; flex-wrap: wrap; gap: 3px; }
ul.streams button[aria-current="true"] { background: #eef2fb; color: var(--accent); font-weight: 600; }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; font-weight: 600; background: #eceff3; }
.badge.scheduled, .badge.held { background: #e4ecfb; color: var(--accent); }
.badge.completed, .badge.free { background: #e3f4e8; color: var(--ok); }
.badge.cancelled { background: #eceff3; color: var(--muted); }
.badge.failed, .badge.expired { background: #fde8e6; color: var(--bad); }
.badge.retrying, .badge.timed-out, .badge.unrecorded { background: #fff1dc; color: var(--warn); }
.badge.ran, .badge.heartbeat-alive { background: #e3f4e8; color: var(--ok); }
.badge.missed, .badge.late, .badge.heartbeat-late, .badge.heartbeat-ahead { background: #fde8e6; color: var(--bad); }
.badge.running { background: #e4ecfb; color: var(--accent); }
.badge.unknown, .badge.heartbeat-unknown { background: #eceff3; color: var(--muted); }
.signals { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 14px; }
.signals h3 { margin: 0 0 4px; font-size: 12px; color: var(--muted); font-weight: 600; }
.signals .error { max-width: none; }
#health[data-ok="false"] { border-color: var(--bad); box-shadow: inset 4px 0 0 var(--bad); }
.summary { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; margin: 0 0 8px; }
.summary .error, .summary .sub { flex-basis: 100%; max-width: none; -webkit-line-clamp: unset; }
.missing { margin: 4px 0; padding: 8px 10px; border-radius: 4px; background: #fde8e6; color: var(--bad); }
.error.wide { max-width: 420px; }
.toggle { display: flex; gap: 6px; align-items: center; font-size: 12px; white-space: nowrap; cursor: pointer; }
.toggle[data-on="true"] { color: #9fe0b4; }
dl.detail { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 14px; margin: 0 0 10px; }
dl.detail dt { color: var(--muted); font-size: 12px; }
dl.detail dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
form.token { max-width: 420px; margin: 80px auto; display: grid; gap: 10px; }
form.token p { margin: 0; color: var(--muted); }
#token-message { color: var(--bad); }
.figure { margin: 0 0 14px; }
.figure figcaption { font-weight: 600; margin: 0 0 4px; }
.figure > svg { display: block; width: 100%; height: auto; margin: 0 0 4px; }
.figure p { margin: 2px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; list-style: none; margin: 0 0 4px; padding: 0; font-size: 12px; color: var(--muted); }
.legend li { display: flex; align-items: center; gap: 4px; }
.legend svg { width: 16px; height: 16px; }
.chart .axis { font-size: 9px; fill: var(--muted); }
.chart .hatch { stroke: var(--bad); stroke-width: 2; }
.m-ran { fill: var(--ok); }
.m-failed { stroke: var(--bad); stroke-width: 0.5; }
.m-stopped { fill: #5c1510; }
.m-skipped { fill: none; stroke: var(--warn); stroke-width: 1.5; }
.m-missed { stroke: var(--bad); stroke-width: 2.5; }
.m-due { fill: var(--muted); }
.m-paused { fill: var(--warn); }
.m-claimed { fill: none; stroke: var(--accent); stroke-width: 1; stroke-dasharray: 2 1; }
.chart .line, .chart .whisker, .chart .axis-line { fill: none; stroke: var(--accent); stroke-width: 1; }
.chart .axis-line { stroke: var(--line); }
.chart .dot { fill: var(--accent); }
button[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); }
`
