/**
 * `Retry` in the package: slotwise's named in-process retry policies (`contention`, `transient`), the
 * one way to replay a unit of work under one (`replay`), a fetch that replays only safe requests
 * (`createRetryingFetch`), the predicates that say which failures are safe to replay, and the
 * durable backoffs a stream keeps in its rows.
 */

// The durable backoffs (a row's attempt count, a stream's recovery alarm) are named here too, beside the in-process ones.
export { durableDelay, recoveryDelay } from "./backoff.ts"

/** Exponential gaps capped at `capMs`, jittered, ending after `retries` retries (ARCHITECTURE.md, "Retry"). */
export interface RetryPolicy {
  /** The policy's name, in its errors: "contention" or "transient". */
  name: string
  /** The first gap, before jitter; each next gap doubles it. */
  baseMs: number
  /** The largest gap, before jitter. */
  capMs: number
  /** How many times a failure is replayed before the last one is thrown. */
  retries: number
}

/** @internal A test's stand-in for the timer a retry waits on. */
export type Sleep = (ms: number) => Promise<void>
/** @internal A test's stand-in for Math.random, the jitter's source. */
export type Random = () => number

// Effect's Schedule.jittered bounds: each gap is scaled by a factor in [0.8, 1.2).
const JITTER_MIN = 0.8
const JITTER_MAX = 1.2

/** @internal Builds a checked policy; slotwise's two policies are the only ones users get (Decision 2). */
export function capped(name: string, baseMs: number, capMs: number, retries: number): RetryPolicy {
  if (typeof name !== "string" || name.length === 0) throw new RangeError("retry policy needs a name")
  if (!(Number.isFinite(baseMs) && baseMs > 0)) throw new RangeError(`${name}: baseMs must be positive, got ${baseMs}`)
  if (!(Number.isFinite(capMs) && capMs >= baseMs)) {
    throw new RangeError(`${name}: capMs must be at least baseMs (${baseMs}), got ${capMs}`)
  }
  if (!(Number.isInteger(retries) && retries > 0)) {
    throw new RangeError(`${name}: retries must be a positive integer, got ${retries}`)
  }
  return Object.freeze({ name, baseMs, capMs, retries })
}

/** Contention on any atomic unit: 50, 100, 200 ms, about 0.35 s in all. */
export const contention = capped("contention", 50, 200, 3)
/** Connection loss on an idempotent unit, and the retrying HTTP client: 200, 400, 800 ms, about 1.4 s. */
export const transient = capped("transient", 200, 2000, 3)

function gapMs(policy: RetryPolicy, retryIndex: number): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** retryIndex)
}

/** @internal The wait before retry number `retryIndex` (0-based); a policy has no gap past its attempt cap. */
export function delayFor(policy: RetryPolicy, retryIndex: number, random: Random = Math.random): number {
  if (!(Number.isInteger(retryIndex) && retryIndex >= 0 && retryIndex < policy.retries)) {
    throw new RangeError(`${policy.name}: retry index must be an integer in [0, ${policy.retries}), got ${retryIndex}`)
  }
  return gapMs(policy, retryIndex) * (JITTER_MIN + (JITTER_MAX - JITTER_MIN) * random())
}

/**
 * The largest total wait the policy can make: every gap at its maximum jitter.
 *
 * @example
 * ```ts
 * Retry.budgetMs(Retry.transient) // 1680: 200 + 400 + 800 ms, each at 1.2 times
 * ```
 */
export function budgetMs(policy: RetryPolicy): number {
  let total = 0
  for (let i = 0; i < policy.retries; i++) total += gapMs(policy, i)
  return total * JITTER_MAX
}

const defaultSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** How `replay` replays: under which policy, and for which failures. */
export interface RetryOptions {
  /** The policy whose gaps and retry count apply: `Retry.contention` or `Retry.transient`. */
  policy: RetryPolicy
  /** Retry only while this is true of the failure: say what is safe to replay (ARCHITECTURE.md, "Retry"). */
  while: (error: unknown) => boolean
  /** @internal */
  sleep?: Sleep
  /** @internal */
  random?: Random
}

/**
 * Runs `fn` (attempt is 1-based) and replays it on a failure `while` accepts, under the policy's gaps
 * and retry count; rethrows the last failure. A D1 failure is never replayed, whatever `while` says.
 *
 * @example
 * ```ts
 * const total = await Retry.replay(() => pool.query("UPDATE counters SET n = n + 1 RETURNING n"), {
 *   policy: Retry.contention,
 *   while: Retry.isContention,
 * })
 * ```
 */
export async function replay<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { policy, while: shouldRetry, sleep = defaultSleep, random = Math.random } = options
  for (let retries = 0; ; retries++) {
    try {
      return await fn(retries + 1)
    } catch (error) {
      // D1 classifies nothing, so no predicate can make a D1 failure safe to replay.
      if (retries >= policy.retries || isD1Error(error) || !shouldRetry(error)) throw error
      // A retry attempt logs nothing; the caller logs the final failure once.
      await sleep(delayFor(policy, retries, random))
    }
  }
}

function* causes(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>()
  let current = error
  while (current !== undefined && current !== null && !seen.has(current) && seen.size < 10) {
    seen.add(current)
    yield current
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined
  }
}

function some(error: unknown, test: (link: { name: string; message: string; code: string }) => boolean): boolean {
  for (const link of causes(error)) {
    if (typeof link !== "object" || link === null) continue
    const { name, message, code } = link as { name?: unknown; message?: unknown; code?: unknown }
    const fields = {
      name: typeof name === "string" ? name : "",
      message: typeof message === "string" ? message : "",
      code: typeof code === "string" || typeof code === "number" ? String(code) : "",
    }
    if (test(fields)) return true
  }
  return false
}

/**
 * A D1 failure ("D1_ERROR: ...", "D1_EXEC_ERROR: ..."), or an error caused by one. D1 classifies
 * nothing, so no in-process policy replays it.
 *
 * @example
 * ```ts
 * Retry.isD1Error(new Error("D1_ERROR: UNIQUE constraint failed")) // true
 * ```
 */
export function isD1Error(error: unknown): boolean {
  return some(error, ({ message }) => message.startsWith("D1_"))
}

const CONTENTION_CODES = new Set(["40P01", "40001", "55P03"])
const CONTENTION_NAMES = new Set(["DeadlockError", "SerializationError", "LockTimeoutError"])

/**
 * The database rolled the unit back (deadlock, serialization, lock timeout, SQLITE_BUSY): safe to replay.
 *
 * @example
 * ```ts
 * Retry.isContention(Object.assign(new Error("deadlock detected"), { code: "40P01" })) // true
 * ```
 */
export function isContention(error: unknown): boolean {
  // D1 classifies nothing, so a D1 failure that mentions locking is still never retried.
  if (isD1Error(error)) return false
  return some(
    error,
    ({ name, message, code }) =>
      CONTENTION_CODES.has(code) ||
      CONTENTION_NAMES.has(name) ||
      code.startsWith("SQLITE_BUSY") ||
      message.includes("SQLITE_BUSY") ||
      message.toLowerCase().includes("database is locked"),
  )
}

const CONNECTION_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"])

/**
 * The connection dropped; the work may or may not have applied, so retry only an idempotent unit.
 *
 * @example
 * ```ts
 * Retry.isConnectionLost(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })) // true
 * ```
 */
export function isConnectionLost(error: unknown): boolean {
  if (isD1Error(error)) return false
  return some(error, ({ name, message, code }) => {
    const text = message.toLowerCase()
    return (
      CONNECTION_CODES.has(code) ||
      name === "ConnectionError" ||
      text.startsWith("fetch failed") ||
      text.startsWith("network connection lost")
    )
  })
}

/**
 * No in-process policy replays this failure: it belongs to the final log line or a durable retrier.
 *
 * @example
 * ```ts
 * if (Retry.neverRetried(error)) return Schedules.retry(describeError(error)) // the stream retries it later
 * ```
 */
export function neverRetried(error: unknown): boolean {
  return !isContention(error) && !isConnectionLost(error)
}

/** A retrying fetch was told to wait (Retry-After) longer than its policy's budget has left: it gives up at once. */
export class RetryAfterExceedsBudgetError extends Error {
  /** Always "RetryAfterExceedsBudgetError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "RetryAfterExceedsBudgetError"
  /** The wait the server asked for, in milliseconds. */
  readonly retryAfterMs: number
  /** What the policy's budget had left, in milliseconds. */
  readonly remainingMs: number
  /** The answer that asked for the wait; its body is unread. */
  readonly response: Response

  constructor(details: { retryAfterMs: number; remainingMs: number; response: Response }) {
    super(
      `Retry-After of ${details.retryAfterMs}ms exceeds the remaining retry budget of ` +
        `${Math.round(details.remainingMs)}ms (status ${details.response.status})`,
    )
    this.retryAfterMs = details.retryAfterMs
    this.remainingMs = details.remainingMs
    this.response = details.response
  }
}

/** A fetch function: the global `fetch`'s signature, which `createRetryingFetch` takes and returns. */
export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** What `createRetryingFetch` wraps, and under which policy. */
export interface RetryingFetchOptions {
  /** The policy whose gaps, retry count and budget apply; `Retry.transient` when unset. */
  policy?: RetryPolicy
  /** The fetch each attempt calls; the global `fetch` when unset. */
  fetch?: Fetch
  /** @internal */
  sleep?: Sleep
  /** @internal */
  random?: Random
  /** @internal */
  now?: () => number
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504])

/**
 * True for an HTTP status a later attempt may cure: 408, 429, 500, 502, 503, 504. Any other will not.
 *
 * @example
 * ```ts
 * if (!response.ok) return Retry.isRetryableStatus(response.status) ? Schedules.retry(`HTTP ${response.status}`) : Schedules.terminal(`HTTP ${response.status}`)
 * ```
 */
export const isRetryableStatus = (status: number): boolean => RETRYABLE_STATUS.has(status)
const REPLAYABLE_METHODS = new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"])

function isReplayable(request: Request): boolean {
  const method = request.method.toUpperCase()
  if (REPLAYABLE_METHODS.has(method)) return true
  return method === "POST" && request.headers.has("Idempotency-Key")
}

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1_000
  // Only a text date: Date.parse would read a bare number such as "1.5" as a calendar date.
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * A fetch that replays only safe requests (GET, PUT, DELETE, HEAD, OPTIONS, and a POST with an
 * Idempotency-Key) on a lost connection or a retryable status, honouring Retry-After, within the
 * policy's budget; out of retries it returns the last response. A Retry-After past the budget throws
 * RetryAfterExceedsBudgetError.
 *
 * @example
 * ```ts
 * const fetchWithRetries = Retry.createRetryingFetch({ policy: Retry.transient })
 * const response = await fetchWithRetries("https://api.example.com/rates", { headers: { accept: "application/json" } })
 * ```
 */
export function createRetryingFetch(options: RetryingFetchOptions = {}): Fetch {
  const policy = options.policy ?? transient
  const send: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const sleep = options.sleep ?? defaultSleep
  const random = options.random ?? Math.random
  const now = options.now ?? Date.now
  const budget = budgetMs(policy)

  return async (input, init) => {
    const request = new Request(input, init)
    const maxRetries = isReplayable(request) ? policy.retries : 0
    let waitedMs = 0
    const pause = async (ms: number) => {
      await sleep(ms)
      waitedMs += ms
    }

    for (let retries = 0; ; retries++) {
      const last = retries >= maxRetries
      // The last attempt takes the original; earlier ones take a clone so the body can be replayed.
      const attempt = last ? request : request.clone()
      let response: Response
      try {
        response = await send(attempt)
      } catch (error) {
        if (last || !isConnectionLost(error)) throw error
        await pause(Math.min(delayFor(policy, retries, random), budget - waitedMs))
        continue
      }
      if (last || !isRetryableStatus(response.status)) return response

      const remainingMs = budget - waitedMs
      const retryAfterMs = parseRetryAfter(response.headers.get("Retry-After"), now())
      if (retryAfterMs !== undefined && retryAfterMs > remainingMs) {
        throw new RetryAfterExceedsBudgetError({ retryAfterMs, remainingMs, response })
      }
      // An unread body holds the connection open in workerd.
      await response.body?.cancel()
      // A computed gap never overruns what earlier Retry-After waits left of the budget.
      await pause(retryAfterMs ?? Math.min(delayFor(policy, retries, random), remainingMs))
    }
  }
}
