/** A job's D1 query refused: its invocation's queries are spent, all but those its runs' releases need. */
export class D1QueryBudgetError extends Error {
  /** Always "D1QueryBudgetError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "D1QueryBudgetError"
}

/** Who makes a query of an invocation: its jobs, or slotwise (the pause lookup, the claims, the releases). */
export type QueryUse = "job" | "pause" | "claim" | "release"

/** The queries slotwise keeps for its own uses out of an invocation's: nothing else can take them. */
export type QueryReserve = Record<Exclude<QueryUse, "job">, number>

/**
 * Every D1 query of one invocation, each statement counted (a statement run, each statement of a batch, an exec,
 * through the binding or a session of it), as D1 may count them: one budget, the plan's. slotwise's own uses each
 * keep a reserve that nothing else can take, the releases' grown by each run's own (keep); past its reserve a use
 * may take from the queries nobody reserved, which the jobs share. So the jobs can never take what a release needs.
 */
export class QueryBudget {
  private left: number
  private readonly reserve: QueryReserve
  /** What the runs' releases keep (keep): the releases' reserve is the larger of it and their share. */
  private kept = 0
  private readonly plan: string

  constructor(total: number, plan: string, reserve: QueryReserve) {
    this.left = total
    this.plan = plan
    this.reserve = { ...reserve }
  }

  /** The queries `use` may still make: its reserve and the queries nobody reserved. */
  room(use: QueryUse): number {
    const { pause, claim } = this.reserve
    const release = Math.max(this.reserve.release, this.kept)
    const free = Math.max(0, this.left - pause - claim - release)
    const own = use === "release" ? release : use === "job" ? 0 : this.reserve[use]
    return Math.min(this.left, own + free)
  }

  /**
   * Takes `n` queries for `use`: undefined, or past its room the D1QueryBudgetError naming the limit. A release
   * batch is never refused here: refused, its runs would surely go unrecorded, while D1 may count it as one query.
   */
  take(use: QueryUse, n = 1): D1QueryBudgetError | undefined {
    if (use !== "release" && this.room(use) < n) {
      return new D1QueryBudgetError(`D1: the ${this.plan} plan's queries are spent`)
    }
    this.left -= n
    if (use !== "job") this.reserve[use] = Math.max(0, this.reserve[use] - n)
    if (use === "release") this.kept = Math.max(0, this.kept - n)
    return undefined
  }

  /** Keeps `n` more queries for the runs' releases (a run's own, out of their share first), or gives back -n. */
  keep(n: number): void {
    this.kept = Math.max(0, this.kept + n)
  }
}

const QUERIES = new Set<PropertyKey>(["run", "all", "first", "raw"])

/**
 * `d1` (a binding or a session of it) with each query it makes taken from `take` first (a statement run, each
 * statement of a batch, an exec, and those of every session it opens): a query refused is rejected with
 * D1QueryBudgetError before it reaches D1. Statements keep their own: a batch is given D1's.
 */
export function budgetedD1<T extends object>(d1: T, take: (n: number) => D1QueryBudgetError | undefined): T {
  const reals = new WeakMap<object, D1PreparedStatement>()
  const gated =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>, count = (..._: A) => 1) =>
    (...args: A): Promise<R> => {
      const refused = take(count(...args))
      return refused ? Promise.reject(refused) : run(...args)
    }
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (typeof value !== "function") return value
        if (property === "bind") return (...args: unknown[]) => counted(value.apply(target, args))
        return QUERIES.has(property) ? gated((...args: unknown[]) => value.apply(target, args)) : value.bind(target)
      },
    })
    reals.set(proxy, statement)
    return proxy
  }
  return new Proxy(d1, {
    get(target, property) {
      const binding = target as unknown as D1Database
      if (property === "prepare") return (query: string) => counted(binding.prepare(query))
      if (property === "batch")
        return gated(
          (statements: D1PreparedStatement[]) => binding.batch(statements.map((s) => reals.get(s) ?? s)),
          (statements) => statements.length,
        )
      if (property === "exec") return gated((query: string) => binding.exec(query))
      // A session is the same database and the same invocation: its queries count as the binding's.
      if (property === "withSession")
        return (constraint?: D1SessionConstraint) => budgetedD1(binding.withSession(constraint), take)
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}
