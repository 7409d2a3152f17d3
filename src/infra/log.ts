export type LogLevel = "debug" | "info" | "warn" | "error"

export type LogFields = Record<string, unknown>

/** Writes one structured JSON line; Workers Logs and `wrangler tail` index its fields. */
export function logLine(level: LogLevel, message: string, fields: LogFields = {}): void {
  const line = JSON.stringify({ level, message, ...fields }, errorReplacer)
  if (level === "error" || level === "warn") console.error(line)
  else console.log(line)
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
