export const TIMED_OUT: unique symbol = Symbol("timed out")

/**
 * Waits for `work` at most `ms`; past that, calls `onTimeout` and answers TIMED_OUT. The work
 * itself goes on (a promise cannot be stopped): give it a signal if it should stop too.
 */
export async function within<T>(work: Promise<T>, ms: number, onTimeout?: () => void): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => {
      onTimeout?.()
      resolve(TIMED_OUT)
    }, ms)
  })
  // A rejection after the deadline is nobody's to handle.
  work.catch(() => {})
  try {
    return await Promise.race([work, timeout])
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
}

interface Waiter {
  onTimeout: () => void
  resolve: (value: typeof TIMED_OUT) => void
}

/**
 * The deadlines of a tick's attempts (ARCHITECTURE.md, "Deliveries"): attempts dispatched together
 * with the same timeout share one timer, not one each. The attempts of a tick start in one
 * synchronous loop, so the shared deadline is each attempt's own. At the deadline, only the
 * attempts still out are timed out (their signal aborted); the timer goes once every attempt of
 * its group answered.
 */
export class Deadlines {
  private readonly groups = new Map<number, { timer: ReturnType<typeof setTimeout>; waiting: Set<Waiter> }>()

  /** `work`, or TIMED_OUT (after `onTimeout`) once `ms` passed since this tick's first attempt of that timeout. */
  within<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T | typeof TIMED_OUT> {
    let group = this.groups.get(ms)
    if (!group) {
      const waiting = new Set<Waiter>()
      const timer = setTimeout(() => {
        this.groups.delete(ms)
        for (const waiter of waiting) {
          waiter.onTimeout()
          waiter.resolve(TIMED_OUT)
        }
      }, ms)
      group = { timer, waiting }
      this.groups.set(ms, group)
    }
    const { waiting, timer } = group
    return new Promise<T | typeof TIMED_OUT>((resolve, reject) => {
      const waiter: Waiter = { onTimeout, resolve }
      waiting.add(waiter)
      const done = () => {
        // A late answer, after its deadline, is nobody's: the attempt already counts as a retry.
        if (!waiting.delete(waiter)) return false
        if (waiting.size === 0 && this.groups.get(ms)?.waiting === waiting) {
          clearTimeout(timer)
          this.groups.delete(ms)
        }
        return true
      }
      work.then(
        (value) => done() && resolve(value),
        (error) => done() && reject(error),
      )
    })
  }
}
