import { fail } from "./definition-error.ts"
import { MAX_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH } from "./limits.ts"

/** JSON text of the payload; refuses what JSON cannot carry unchanged, nesting past the limit, and more than 64 KiB. */
export function encodePayload(payload: unknown): string {
  if (payload === undefined) return "null"
  // Before JSON.stringify and any structured clone, both of which recurse.
  const problem = jsonProblem(payload)
  if (problem) fail("payload", problem)
  const text = JSON.stringify(payload)
  if (new TextEncoder().encode(text).byteLength > MAX_PAYLOAD_BYTES) fail("payload", "is over 64 KiB as JSON")
  return text
}

interface Open {
  container: object
  entries: Array<[string, unknown]>
  next: number
}

/** Depth first without recursion, so no payload can overflow the stack; `path` holds the open containers. */
function jsonProblem(payload: unknown): string | undefined {
  const path: Open[] = []
  const where = () =>
    path.reduce((label, { container, entries, next }) => {
      const key = entries[next - 1]?.[0]
      return Array.isArray(container) ? `${label}[${key}]` : `${label}.${key}`
    }, "payload")
  let value = payload
  // Every value is at least one byte of JSON: a walk longer than that is over the size limit (shared references included).
  for (let walked = 0; walked <= MAX_PAYLOAD_BYTES; walked++) {
    const problem = scalarProblem(value)
    if (problem) return `is not JSON: ${where()} ${problem}`
    if (typeof value === "object" && value !== null) {
      if (path.some((open) => open.container === value)) return `is not JSON: ${where()} is circular`
      if (path.length === MAX_PAYLOAD_DEPTH) return `nests deeper than ${MAX_PAYLOAD_DEPTH} levels at ${where()}`
      path.push({ container: value, entries: Object.entries(value), next: 0 })
    }
    let open = path.at(-1)
    while (open && open.next === open.entries.length) {
      path.pop()
      open = path.at(-1)
    }
    if (!open) return undefined
    value = (open.entries[open.next++] as [string, unknown])[1]
  }
  return "is over 64 KiB as JSON"
}

/** What keeps one value (not its contents) out of JSON, if anything. */
function scalarProblem(value: unknown): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `is ${value}`
  if (typeof value !== "object") return `is a ${typeof value}`
  const proto = Object.getPrototypeOf(value)
  if (Array.isArray(value) || proto === Object.prototype || proto === null) return undefined
  return `is a ${value.constructor?.name ?? "non-plain object"}`
}
