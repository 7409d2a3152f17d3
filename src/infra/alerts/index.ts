// The public names of alerts, each listed once; the entries pass them on with `export *`.

export type { AlertOptions, AlertReport } from "./alert-job.ts"
export * as Alerts from "./namespace.ts"
export type { AlertNotice } from "./notice.ts"
export { AlertDefinitionError, type AlertKind, type AlertRule } from "./rule.ts"
