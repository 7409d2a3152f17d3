/**
 * Where to put a burst's due time T0: after the setup, which must finish first. Each system's
 * setup time is learnt from its earlier setups (cumulative ms after n schedules) and fitted as
 * t = a·n + b·n² with a, b >= 0: the agent's schedule() reads every job it holds, so its setup
 * grows with the square of n, slotwise's linearly.
 */
export class SetupClock {
  private readonly samples: Array<readonly [number, number]> = []

  add(n: number, ms: number): void {
    if (n > 0) this.samples.push([n, ms])
  }

  /** Predicted ms to create n schedules in one object; 1 ms each before anything was learnt. */
  predict(n: number): number {
    if (this.samples.length === 0) return n
    let nn = 0
    let n3 = 0
    let n4 = 0
    let nt = 0
    let n2t = 0
    for (const [x, t] of this.samples) {
      nn += x * x
      n3 += x * x * x
      n4 += x * x * x * x
      nt += x * t
      n2t += x * x * t
    }
    const det = nn * n4 - n3 * n3
    let a = det === 0 ? 0 : (nt * n4 - n2t * n3) / det
    let b = det === 0 ? 0 : (nn * n2t - n3 * nt) / det
    if (det === 0 || a < 0 || b < 0) {
      // Fit one term alone, whichever explains the samples better.
      const linear = nt / nn
      const square = n2t / n4
      const error = (f: (x: number) => number) => this.samples.reduce((sum, [x, t]) => sum + (t - f(x)) ** 2, 0)
      const linearFits = error((x) => linear * x) <= error((x) => square * x * x)
      a = linearFits ? linear : 0
      b = linearFits ? 0 : square
    }
    return a * n + b * n * n
  }
}

/** Margin on the predicted setup time: twice it plus 2 seconds. */
export const leadFor = (predictedMs: number) => predictedMs * 2 + 2_000

/** The first whole second at least `leadMs` from `now` (the agent stores due times in whole seconds). */
export const wholeSecondAfter = (now: number, leadMs: number) => Math.ceil((now + leadMs) / 1000) * 1000
