import { maskSource } from "./source-mask.ts"

/**
 * How an entry exports its Worker, which decides how init wires slotwise in:
 * - `object`: `export default { fetch…, scheduled… }` (create-cloudflare's hello world, scheduled and Durable Object
 *   templates), with or without `satisfies ExportedHandler<Env>`;
 * - `identifier`: `export default app` (a Hono app, create-cloudflare's Hono template) or another handler by name;
 * - `entrypoint`: `export default class extends WorkerEntrypoint`, which init leaves to the user (its exact lines);
 * - `other`: anything else (no default export, `export { x as default }`, a function), also left to the user.
 */
export type EntryShape =
  | { kind: "object"; at: number; length: number }
  | { kind: "identifier"; at: number; length: number; name: string; hono: boolean }
  | { kind: "entrypoint" }
  | { kind: "other" }

/** The names init's wiring declares or imports in the entry: one the entry already uses is left to the user. */
export const WIRING_NAMES = [
  "Jobs",
  "Schedules",
  "admin",
  "jobs",
  "consumers",
  "slotwiseJobs",
  "slotwiseHeartbeat",
  "slotwiseAdmin",
  "ownWorker",
  "worker",
] as const

/** The entry's shape: where its `export default` is, in the source as written. */
export function entryShape(source: string, file?: string): EntryShape {
  const code = maskSource(source, file)
  const object = /^export\s+default\s*(?=\{)/m.exec(code)
  if (object) return { kind: "object", at: object.index, length: object[0].length }
  const named = /^export\s+default\s+([A-Za-z_$][\w$]*)\s*;?[ \t]*(?:\r?\n|$)/m.exec(code)
  if (named?.[1] !== undefined && !["class", "function", "async", "new"].includes(named[1])) {
    const name = named[1]
    const hono = new RegExp(`\\b(?:const|let|var)\\s+${name.replace("$", "\\$")}\\s*=\\s*new\\s+Hono\\b`).test(code)
    return { kind: "identifier", at: named.index, length: named[0].length, name, hono }
  }
  if (/^export\s+default\s+class\b[^{]*\bextends\s+WorkerEntrypoint\b/m.test(code)) return { kind: "entrypoint" }
  return { kind: "other" }
}

/** The names of WIRING_NAMES the entry's code (comments and strings aside) already has. */
export const takenNames = (source: string, file?: string): string[] => {
  const code = maskSource(source, file)
  return WIRING_NAMES.filter((name) => new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(code))
}

/** Whether the entry imports Hono from "hono" already (the wiring then adds no second import). */
export const importsHono = (source: string) => /import\s*\{[^}]*\bHono\b[^}]*\}\s*from\s*["']hono["']/.test(source)

/** Whether the entry already imports slotwise and exports the stream class: a second run leaves it alone. */
export const isWired = (entry: string, className: string) =>
  /from\s+["']slotwise["']/.test(entry) && new RegExp(`export\\s+class\\s+${className}\\b`).test(entry)
