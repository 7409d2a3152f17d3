// Types of local-heartbeat.js, for the TypeScript that imports it (npm start, its tests).

export declare const MINUTE_MS: number
export declare const SCHEDULED_PATH: string
export declare const DEFAULT_URL: string
export declare const DEFAULT_CRON: string
export declare const USAGE: string

export declare class UsageError extends Error {}

export interface HeartbeatLog {
  info(line: string): void
  warn(line: string): void
}

export interface Options {
  url: string
  cron: string
  beats: number
  help: boolean
}

export declare function parseArgs(argv: readonly string[]): Options
export declare function minuteOf(ms: number): number
export declare function scheduledUrl(url: string, cron: string, minute: number): string

export interface FireOptions {
  url: string
  cron: string
  /** The minute's start (ms): the scheduledTime the Worker's scheduled() sees. */
  minute: number
  signal: AbortSignal
  log: HeartbeatLog
  fetch?: typeof globalThis.fetch
}

/** Fires the heartbeat for one minute and logs one line; never throws. */
export declare function fire(options: FireOptions): Promise<{ ok: boolean; line: string }>

export interface RunOptions extends Omit<FireOptions, "minute"> {
  beats?: number
  now?: () => number
  /** Waits `ms`, resolving early (never rejecting) when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/**
 * Fires every UTC minute `cron` names from now on; resolves once `beats` fires are answered, or when `signal`
 * aborts. `failed` counts the fires not answered with 2xx.
 *
 * @example
 * ```ts
 * await runHeartbeats({ url: "http://127.0.0.1:8787", cron: "* * * * *", signal, log: { info: console.log, warn: console.error } })
 * ```
 */
export declare function runHeartbeats(options: RunOptions): Promise<{ fired: number; failed: number }>

export interface MainOptions extends Partial<Pick<RunOptions, "now" | "sleep" | "fetch">> {
  signal: AbortSignal
  stdout?: (line: string) => void
  stderr?: (line: string) => void
}

/** The command: answers its exit status (0, 1 when a fire was not answered with 2xx, 2 for a bad argument). */
export declare function main(argv: readonly string[], options: MainOptions): Promise<number>
