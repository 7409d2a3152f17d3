// The pure core of a stream, a transition per file: what the Durable Object reads, computes and writes, given `now`.

export { firstDue, nextDue } from "./cadence.ts"
export { type Claim, claim, deliveryOf, type Selection } from "./claim.ts"
export { heldUntil } from "./hold.ts"
export { cancel, remove, resume, trigger } from "./lifecycle.ts"
export { type DeliveryResult, expireLost, fenceHolds, settle } from "./settle.ts"
export { type Change, changed, type NoChange, type Transition } from "./transition.ts"
export { upsert } from "./upsert.ts"
