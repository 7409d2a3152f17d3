import { withMissingMigration } from "./missing-migration.ts"
import { redactUrlSecrets } from "./url-secrets.ts"

export type LogLevel = "debug" | "info" | "warn" | "error"

/** A log line's fields beside its level and message: `{ job, slot, runId }`. Each becomes a JSON property. */
export type LogFields = Record<string, unknown>

/** The console method of each level: Workers Logs and `wrangler dev` show a line at the level it was written at. */
const WRITE: Readonly<Record<LogLevel, (line: string) => void>> = {
  debug: (line) => console.debug(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
}

/** Writes one structured JSON line; Workers Logs and `wrangler tail` index its fields. No URL's secrets reach it (url-secrets.ts). */
export function logLine(level: LogLevel, message: string, fields: LogFields = {}): void {
  WRITE[level](JSON.stringify({ level, message, ...fields }, errorReplacer))
}

/**
 * Writes one structured JSON line per call, with the fields its owner set (a job's `ctx.log` carries
 * job, slot and runId); Workers Logs and `wrangler tail` index the fields.
 *
 * @example
 * ```ts
 * ctx.log.info("trials closed", { closed: 12 }) // {"level":"info","message":"trials closed","job":"...","closed":12}
 * ```
 */
export interface Logger {
  /** Writes an info line: what happened, for the record. */
  info(message: string, fields?: LogFields): void
  /** Writes a warning line: something to look at, nothing failed yet. */
  warn(message: string, fields?: LogFields): void
  /** Writes an error line: something failed. */
  error(message: string, fields?: LogFields): void
}

/** A logger whose lines all carry `context` (job, slot, runId...). */
export function logger(context: LogFields): Logger {
  return {
    info: (message, fields) => logLine("info", message, { ...context, ...fields }),
    warn: (message, fields) => logLine("warn", message, { ...context, ...fields }),
    error: (message, fields) => logLine("error", message, { ...context, ...fields }),
  }
}

/** How far describeError follows `cause`: a chain that loops must not hang the run that threw it. */
const CAUSE_DEPTH = 16
/** How much of an object without text (no prototype, a throwing toString) describeError shows as JSON. */
const SHAPE_MAX = 200

/**
 * A short, loggable description of anything thrown: its innermost cause (drizzle wraps D1's), with
 * the userinfo, query values and fragment of any URL in it hidden (`***`), and the slotwise migration a
 * database error shows missing named (missing-migration.ts). Never throws, whatever
 * was thrown: an object with no prototype, a throwing getter, a revoked Proxy.
 *
 * @example
 * ```ts
 * describeError(new Error("outer", { cause: new TypeError("inner") })) // "TypeError: inner"
 * describeError(Object.create(null)) // "object {}"
 * ```
 */
export function describeError(error: unknown): string {
  // A message may quote a URL with its credentials (a fetch's, a redirect's Location): never shown. A database
  // error naming what a slotwise migration adds says which migration is missing (an upgrade deployed before it).
  return withMissingMigration(redactUrlSecrets(describeAnything(error)))
}

function describeAnything(error: unknown): string {
  try {
    let root = error
    for (let depth = 0; depth < CAUSE_DEPTH && root instanceof Error && root.cause instanceof Error; depth++) {
      root = root.cause
    }
    if (root instanceof Error) return `${textOf(root.name)}: ${textOf(root.message)}`
    return textOf(root)
  } catch {
    return shapeOf(error)
  }
}

/** A value's own text (String), or its shape when it has none. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value
  try {
    return String(value)
  } catch {
    return shapeOf(value)
  }
}

/** An object that cannot be turned into text, by its fields as JSON, or by its type alone. */
function shapeOf(value: unknown): string {
  try {
    const found = JSON.stringify(value)
    // Hidden before the cut: a cut inside `user:password@` would leave the password's start for no regex to find.
    const json = typeof found === "string" ? redactUrlSecrets(found) : undefined
    if (json !== undefined) return `${typeof value} ${json.length > SHAPE_MAX ? `${json.slice(0, SHAPE_MAX)}…` : json}`
  } catch {
    // a throwing getter, a BigInt field or a revoked Proxy: the type is all there is to say
  }
  return `a thrown ${typeof value} that cannot be turned into text`
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "string") return redactUrlSecrets(value)
  return value instanceof Error ? describeError(value) : value
}
