import { byId } from "./dom.ts"

export type StatusKind = "ok" | "error" | "busy" | "info"

/** The status line: the outcome of the last action, or the last error. */
export function say(text: string, kind: StatusKind): void {
  const status = byId("status")
  status.textContent = text
  status.dataset.kind = kind
  status.title = text
}
