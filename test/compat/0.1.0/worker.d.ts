// Types for worker.js, slotwise 0.1.0's Worker entry (build.sh): only what the compatibility tests call, written
// by hand to match 0.1.0's source (commit 4ca12a7).
import type { StreamClient010 } from "./engine.js"

export interface Delivery010 {
  stream: string
  scheduleId: string
  occurrence: number
  attempt: number
  idempotencyKey: string
  payload: unknown
}

export interface Consumer010 {
  readonly name: string
}

/** 0.1.0's stream schema version: its code refuses storage newer than this. */
export declare const SCHEMA_VERSION: number

export declare const Schedules: {
  consumer(definition: { name: string; deliver: (delivery: Delivery010) => unknown }): Consumer010
  stream(namespace: DurableObjectNamespace, name: string): StreamClient010
  durableObject(options: {
    consumers: readonly Consumer010[]
    clock?: () => number
  }): new (
    ctx: DurableObjectState,
    env: unknown,
  ) => Rpc.DurableObjectBranded
}
