import type { Claim, DeliveryResult, Transition } from "../../src/infra/schedules/core.ts"
import type { ScheduleRow } from "../../src/infra/schedules/row.ts"
import type { ScheduleStream } from "../../src/infra/schedules/stream.ts"

/** The ticker's private parts the simulator hooks into (src/infra/schedules/tick.ts). */
interface TickerInternals {
  yieldAfterMs: number
  recoveryMs: number
  settle(stream: string, claim: Claim, result: DeliveryResult, now: number): Transition
  claimDue(now: number, room: number): { claims: Array<{ row: ScheduleRow; claim: Claim }>; error?: unknown }
  afterSettling(error: unknown, clock: () => number): Promise<void>
  arm(...args: unknown[]): Promise<number | null>
  recover(error: unknown, now: number): Promise<number | null>
  /** The D1 directory's copy of the alarm (src/infra/schedules/recorder.ts), where present. */
  recorder?: { record(next: number | null, now: number, rewrite?: boolean): Promise<void>; retryAt(): number | null }
}

/** A ScheduleStream as the simulator drives it: its RPC methods and the internals it watches. */
export type StreamInternals = Pick<ScheduleStream, "upsert" | "cancel" | "resume" | "trigger" | "remove" | "tick"> & {
  ticker: TickerInternals
  store: { get(id: string): ScheduleRow | undefined }
  refusal: Error | undefined
  /** Migrates again after a transient refusal; answers the refusal that remains. */
  ready(): Error | undefined
}

/** What the oracle hears from one generation's ticker. */
export interface TickerHooks {
  yieldAfterMs: number
  claiming(): void
  claimed(row: ScheduleRow, claim: Claim): void
  settle(settle: () => Transition, claim: Claim, result: DeliveryResult, now: number): Transition
  /** A yielded tick's re-arm (or recovery), once all its deliveries settled. */
  later(done: Promise<void>): void
  /** When an arm() starts (it reads the smallest eligible_at first); the callback once it set the alarm. */
  arming(): () => void
  /** When recover() runs: its time, the delay before it, the delay after; the callback once it armed. */
  recovering(now: number, before: number, after: () => number): () => void
  /** Sabotage: the claim the settling code must take for the live one ("fence"). */
  forge?: () => Claim | undefined
}

/** Wraps the ticker's private methods of one generation so that every claim, settlement and re-arm is seen. */
export function hookStream(stream: StreamInternals, hooks: TickerHooks): void {
  const ticker = stream.ticker
  ticker.yieldAfterMs = hooks.yieldAfterMs
  // The D1 directory lies outside the object: the simulation keeps to the stream's own storage.
  if (ticker.recorder) ticker.recorder = { record: () => Promise.resolve(), retryAt: () => null }
  const claimDue = ticker.claimDue.bind(ticker)
  ticker.claimDue = (now, room) => {
    hooks.claiming()
    const out = claimDue(now, room)
    for (const { row, claim } of out.claims) hooks.claimed(row, claim)
    return out
  }
  const settle = ticker.settle.bind(ticker)
  ticker.settle = (name, claim, result, now) => hooks.settle(() => settle(name, claim, result, now), claim, result, now)
  const afterSettling = ticker.afterSettling.bind(ticker)
  ticker.afterSettling = (error, clock) => {
    const done = afterSettling(error, clock)
    hooks.later(done)
    return done
  }
  const arm = ticker.arm.bind(ticker)
  ticker.arm = async (...args) => {
    const armed = hooks.arming()
    const next = await arm(...args)
    armed()
    return next
  }
  const recover = ticker.recover.bind(ticker)
  ticker.recover = (error, now) => {
    const done = hooks.recovering(now, ticker.recoveryMs, () => ticker.recoveryMs)
    try {
      return recover(error, now)
    } finally {
      done()
    }
  }
  const forge = hooks.forge
  if (forge) {
    const get = stream.store.get.bind(stream.store)
    stream.store.get = (id) => {
      const row = get(id)
      const claim = forge()
      if (!row || claim?.id !== id || row.claimToken === null) return row
      return { ...row, claimToken: claim.token, claimUntil: Math.max(row.claimUntil ?? 0, claim.claimUntil) }
    }
  }
}
