/** A job's D1 query refused: its invocation's queries are spent, all but those its runs' releases need. */
export class D1QueryBudgetError extends Error {
  /** Always "D1QueryBudgetError": the name survives where `instanceof` does not (RPC, bundles). */
  override name = "D1QueryBudgetError"
}

/** The D1 queries the jobs of one invocation may still make (a D1 batch is one, as D1 counts them). */
export class QueryBudget {
  private left: number
  private readonly total: number
  private readonly plan: string

  constructor(total: number, plan: string) {
    this.left = total
    this.total = total
    this.plan = plan
  }

  /** Takes one query: undefined, or past the budget the D1QueryBudgetError naming the limit. */
  take(): D1QueryBudgetError | undefined {
    if (this.left <= 0) {
      return new D1QueryBudgetError(
        `D1: this invocation's jobs have made their ${this.total} queries (the ${this.plan} plan's limit, less what slotwise keeps to claim and record their runs)`,
      )
    }
    this.left--
    return undefined
  }
}

const QUERIES = new Set<PropertyKey>(["run", "all", "first", "raw"])

/**
 * `d1` as an invocation's jobs are handed it: each query (a statement run, a batch, an exec) takes one from
 * `budget`, and past it is refused with D1QueryBudgetError before it reaches D1, so the queries the runs'
 * releases need are always left. Statements keep their own: a batch is given D1's.
 */
export function budgetedD1(d1: D1Database, budget: QueryBudget): D1Database {
  const reals = new WeakMap<object, D1PreparedStatement>()
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (typeof value !== "function") return value
        if (property === "bind") return (...args: unknown[]) => counted(value.apply(target, args))
        if (!QUERIES.has(property)) return value.bind(target)
        return (...args: unknown[]) => {
          const refused = budget.take()
          return refused ? Promise.reject(refused) : value.apply(target, args)
        }
      },
    })
    reals.set(proxy, statement)
    return proxy
  }
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") return (query: string) => counted(target.prepare(query))
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          const refused = budget.take()
          if (refused) return Promise.reject(refused)
          return target.batch(statements.map((statement) => reals.get(statement) ?? statement))
        }
      }
      if (property === "exec") {
        return (query: string) => {
          const refused = budget.take()
          return refused ? Promise.reject(refused) : target.exec(query)
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}
