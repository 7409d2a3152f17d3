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
 * Every D1 query of one invocation, as D1 counts them (a statement run, a batch, an exec, through the binding
 * or a session of it): one budget, the plan's. slotwise's own uses each keep a reserve that nothing else can
 * take; past its reserve a use may take from the queries nobody reserved, which the jobs share. So the jobs can
 * never take what the releases need, and a release never waits while queries are left that no one reserved.
 */
export class QueryBudget {
  private left: number
  private readonly reserve: QueryReserve
  private readonly plan: string

  constructor(total: number, plan: string, reserve: QueryReserve) {
    this.left = total
    this.plan = plan
    this.reserve = { ...reserve }
  }

  /** The queries `use` may still make: its reserve and the queries nobody reserved. */
  room(use: QueryUse): number {
    const { pause, claim, release } = this.reserve
    const free = Math.max(0, this.left - pause - claim - release)
    return use === "job" ? free : Math.min(this.left, this.reserve[use] + free)
  }

  /** Takes one query for `use`: undefined, or past its room the D1QueryBudgetError naming the limit. */
  take(use: QueryUse): D1QueryBudgetError | undefined {
    if (this.room(use) <= 0) {
      return new D1QueryBudgetError(`D1: the ${this.plan} plan's queries are spent`)
    }
    this.left--
    if (use !== "job" && this.reserve[use] > 0) this.reserve[use]--
    return undefined
  }
}

const QUERIES = new Set<PropertyKey>(["run", "all", "first", "raw"])

/**
 * `d1` (a binding or a session of it) with each query it makes taken from `take` first (a statement run, a
 * batch, an exec, and those of every session it opens): a query refused is rejected with D1QueryBudgetError
 * before it reaches D1. Statements keep their own: a batch is given D1's.
 */
export function budgetedD1<T extends object>(d1: T, take: () => D1QueryBudgetError | undefined): T {
  const reals = new WeakMap<object, D1PreparedStatement>()
  const gated =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const refused = take()
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
        return gated((statements: D1PreparedStatement[]) => binding.batch(statements.map((s) => reals.get(s) ?? s)))
      if (property === "exec") return gated((query: string) => binding.exec(query))
      // A session is the same database and the same invocation: its queries count as the binding's.
      if (property === "withSession")
        return (constraint?: D1SessionConstraint) => budgetedD1(binding.withSession(constraint), take)
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}
