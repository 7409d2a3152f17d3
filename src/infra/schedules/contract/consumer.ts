import { type Duration, toMillis } from "../../duration.ts"
import type { Logger } from "../../log.ts"
import type { OnceResult, OnceStatement } from "../../once.ts"
import type { Json } from "./spec.ts"

/** One attempt at delivering one occurrence of a schedule: what a consumer's `deliver` is handed. */
export interface Delivery<P extends Json = Json> {
  /** The stream's name. */
  stream: string
  /** The schedule's id within its stream. */
  scheduleId: string
  /** 1-based; stays the same through every retry of this occurrence. */
  occurrence: number
  /** When this occurrence was due (not when the attempt started). */
  dueAt: Date
  /** 1 for the first try of this occurrence, raised by each retry or lost lease. */
  attempt: number
  /** How long after `dueAt` this attempt started, in milliseconds. */
  lateByMs: number
  /**
   * `schedule:<stream>/<id>@<incarnation>:<occurrence>`: dedupe side effects on it (delivery is at least once).
   * The incarnation is the row's, so an id created again after its row was deleted has new keys.
   */
  idempotencyKey: string
  /** The schedule's payload, as upserted. */
  payload: P
}

/** What `deliver` is handed beside the delivery: the env, a logger, the timeout's signal, and its exactly-once writes. */
export interface DeliveryContext {
  /** The Worker's env. */
  env: Cloudflare.Env
  /** Writes structured lines carrying the stream, schedule, occurrence and attempt. */
  log: Logger
  /** Aborted at the consumer's timeout; slotwise cannot stop code that ignores it. */
  signal: AbortSignal
  /**
   * Commits the statements' D1 writes together with this delivery's idempotency key, in one D1 batch (a
   * transaction): a redelivery of the key writes nothing and answers `duplicate`. Statements are prepared on
   * `env.DB` (D1 statements or drizzle queries); any other D1 failure is thrown, having written nothing, and the
   * delivery retries durably. Keys are kept 30 days (docs/exactly-once.md).
   *
   * @example
   * ```ts
   * deliver: async (delivery, { env, once }) => {
   *   await once([env.DB.prepare("UPDATE credits SET n = n + 1 WHERE account = ?").bind(delivery.payload.account)])
   * }
   * ```
   */
  once(statements: readonly OnceStatement[]): Promise<OnceResult>
}

/** What `Schedules.retry` and `Schedules.terminal` build, for `deliver` to return when the attempt did not deliver. */
export type Outcome = { status: "retry"; reason: string } | { status: "terminal"; reason: string }

// Only outcomes built by retry()/terminal() count: any other returned value means delivered.
const outcomes = new WeakSet<object>()
const outcome = (status: Outcome["status"], reason: unknown): Outcome => {
  const built = { status, reason: String(reason) }
  outcomes.add(built)
  return built
}

/**
 * Retry this occurrence after the durable backoff (1, 2, 4 ... 60 s).
 *
 * @example
 * ```ts
 * if (response.status === 503) return Schedules.retry("the provider is down")
 * ```
 */
export const retry = (reason: string): Outcome => outcome("retry", reason)
/**
 * Stop the whole schedule in `failed`, recurring ones included, until resumed or upserted.
 *
 * @example
 * ```ts
 * if (response.status === 410) return Schedules.terminal("the webhook was deleted")
 * ```
 */
export const terminal = (reason: string): Outcome => outcome("terminal", reason)

export const isOutcome = (value: unknown): value is Outcome =>
  typeof value === "object" && value !== null && outcomes.has(value)

/** What `Schedules.consumer` takes: a consumer of schedules as declared in code. */
export interface ConsumerDefinition<P extends Json = Json> {
  /** `[a-z0-9][a-z0-9._-]{0,99}`, unique among the consumers a Worker hands its streams. */
  name: string
  /** Default 30 seconds, at most 10 minutes; the claim's lease is timeout + 30 seconds. */
  timeout?: Duration
  /** Return nothing (or any value) when delivered; return retry()/terminal() or throw otherwise. */
  deliver: (delivery: Delivery<P>, ctx: DeliveryContext) => unknown
}

/** A declared consumer, checked and frozen (`Schedules.consumer`'s answer): what `Schedules.durableObject` and admin take. */
export interface Consumer {
  /** Its name, which a schedule's `consumer` names. */
  readonly name: string
  /** How long an attempt may take before its signal aborts it, in milliseconds. */
  readonly timeoutMs: number
  /** How long a delivery claim holds: the timeout plus 30 seconds. */
  readonly leaseMs: number
  /** What an attempt runs, as declared. */
  readonly deliver: (delivery: Delivery, ctx: DeliveryContext) => unknown
}

export const CONSUMER_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/
export const DEFAULT_TIMEOUT_MS = 30_000
export const MAX_TIMEOUT_MS = 10 * 60_000
export const MIN_TIMEOUT_MS = 100
export const LEASE_MARGIN_MS = 30_000

/** A consumer definition `Schedules.consumer` refused, naming the field: thrown when the module loads. */
export class ConsumerDefinitionError extends Error {
  /** Always "ConsumerDefinitionError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "ConsumerDefinitionError"
}

/**
 * Declares a consumer of schedules: what a delivery does. Throws ConsumerDefinitionError on a bad
 * name, timeout or deliver. Delivery is at least once: dedupe side effects on the idempotency key.
 *
 * @example
 * ```ts
 * export const trialReminder = Schedules.consumer<{ userId: number }>({
 *   name: "billing.trial-reminder",
 *   timeout: "10 seconds", // default 30 s, at most 10 minutes
 *   deliver: async (delivery, { env, signal }) => {
 *     if (await alreadySent(env, delivery.idempotencyKey)) return
 *     const res = await send(delivery.payload.userId, { signal })
 *     if (res.status === 404) return Schedules.terminal("user deleted") // stops the schedule
 *     if (!res.ok) return Schedules.retry(`provider answered ${res.status}`) // 1, 2, 4 ... 60 s
 *   },
 * })
 * ```
 */
export function consumer<P extends Json = Json>(definition: ConsumerDefinition<P>): Consumer {
  const label = String(definition?.name)
  if (typeof definition?.name !== "string" || !CONSUMER_NAME.test(definition.name)) {
    throw new ConsumerDefinitionError(`consumer "${label}": name must match [a-z0-9][a-z0-9._-]{0,99}`)
  }
  const timeoutMs = definition.timeout === undefined ? DEFAULT_TIMEOUT_MS : toMillis(definition.timeout)
  if (timeoutMs === undefined || timeoutMs < MIN_TIMEOUT_MS || timeoutMs > MAX_TIMEOUT_MS) {
    throw new ConsumerDefinitionError(`consumer "${label}": timeout must be between 100 ms and 10 minutes`)
  }
  if (typeof definition.deliver !== "function") {
    throw new ConsumerDefinitionError(`consumer "${label}": deliver must be a function`)
  }
  return Object.freeze({
    name: definition.name,
    timeoutMs,
    leaseMs: timeoutMs + LEASE_MARGIN_MS,
    deliver: definition.deliver as Consumer["deliver"],
  })
}

export interface ConsumerRegistry {
  get(name: string): Consumer | undefined
  readonly names: readonly string[]
}

/** Consumers by name; a name declared twice throws, so a Worker with one fails at start-up. */
export function consumerRegistry(list: readonly Consumer[]): ConsumerRegistry {
  const byName = new Map<string, Consumer>()
  for (const item of list) {
    if (byName.has(item.name)) throw new ConsumerDefinitionError(`consumer "${item.name}" is declared twice`)
    byName.set(item.name, item)
  }
  const names = Object.freeze([...byName.keys()])
  return { get: (name) => byName.get(name), names }
}
