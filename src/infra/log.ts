export type LogLevel = "debug" | "info" | "warn" | "error"

export type LogFields = Record<string, unknown>

/** The console method of each level: Workers Logs and `wrangler dev` show a line at the level it was written at. */
const WRITE: Readonly<Record<LogLevel, (line: string) => void>> = {
  debug: (line) => console.debug(line),
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
}

/** Writes one structured JSON line; Workers Logs and `wrangler tail` index its fields. */
export function logLine(level: LogLevel, message: string, fields: LogFields = {}): void {
  WRITE[level](JSON.stringify({ level, message, ...fields }, errorReplacer))
}

export interface Logger {
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
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

/** A short, loggable description of anything thrown: its innermost cause (drizzle wraps D1's). */
export function describeError(error: unknown): string {
  let root = error
  while (root instanceof Error && root.cause instanceof Error) root = root.cause
  if (root instanceof Error) return `${root.name}: ${root.message}`
  return String(root)
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? describeError(value) : value
}
