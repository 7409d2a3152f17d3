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
