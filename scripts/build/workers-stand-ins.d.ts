// The Workers runtime types slotwise's declarations name, for a Node project that has no Workers types: the
// `node` condition's declarations (dist/node-types, scripts/build/node-types.ts) import these instead of the
// globals @cloudflare/workers-types declares, so `skipLibCheck: false` compiles without them. Each is the part of
// the runtime's type that slotwise's API hands out or takes, as the container profile implements it.

/** What fetch() takes (the Workers' and the DOM's global; Node's types have none). */
export type RequestInfo = Request | string | URL

/** A D1 query's answer. */
export interface D1Result<T = Record<string, unknown>> {
  results: T[]
  success: true
  meta: Record<string, unknown>
}

/** A prepared D1 statement (in the container, over libSQL). */
export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement
  first<T = Record<string, unknown>>(column?: string): Promise<T | null>
  run<T = Record<string, unknown>>(): Promise<D1Result<T>>
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]>
}

/** env.DB: a D1 database (in the container, a D1 binding over libSQL or PostgreSQL). */
export interface D1Database {
  prepare(query: string): D1PreparedStatement
  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]>
}

/** A Durable Object's id. */
export interface DurableObjectId {
  toString(): string
  equals(other: DurableObjectId): boolean
}

/** A Durable Object namespace binding (a Worker's; the container has none). */
export interface DurableObjectNamespace {
  idFromName(name: string): DurableObjectId
  get(id: DurableObjectId): unknown
}

/** An Analytics Engine dataset binding. */
export interface AnalyticsEngineDataset {
  writeDataPoint(event?: { indexes?: (string | null)[]; blobs?: (string | null)[]; doubles?: number[] }): void
}

/** What a handler may hand work to that outlives its answer. */
export interface ExecutionContext<Props = unknown> {
  waitUntil(promise: Promise<unknown>): void
  passThroughOnException(): void
  readonly props: Props
}

/** A Cron Trigger's firing. */
export interface ScheduledController {
  readonly scheduledTime: number
  readonly cron: string
  noRetry(): void
}

/** A Queue producer binding. */
export interface Queue<Body = unknown> {
  send(message: Body, options?: Record<string, unknown>): Promise<void>
  sendBatch(
    messages: Iterable<{ body: Body } & Record<string, unknown>>,
    options?: Record<string, unknown>,
  ): Promise<void>
}

/** One message of a Queue consumer's batch. */
export interface Message<Body = unknown> {
  readonly id: string
  readonly timestamp: Date
  readonly body: Body
  readonly attempts: number
  retry(options?: { delaySeconds?: number }): void
  ack(): void
}

/** A Queue consumer's batch. */
export interface MessageBatch<Body = unknown> {
  readonly queue: string
  readonly messages: readonly Message<Body>[]
  retryAll(options?: { delaySeconds?: number }): void
  ackAll(): void
}

/** The Worker's env as `wrangler types` declares it; in a Node project, slotwise's bindings and any other value. */
export declare namespace Cloudflare {
  interface Env {
    [name: string]: unknown
  }
}
