/** What a metered D1 binding saw: round trips (a batch is one), statements, and D1's own rows read and written. */
export interface D1Count {
  queries: number
  statements: number
  rowsRead: number
  rowsWritten: number
}

type Meta = { rows_read?: number; rows_written?: number }

/**
 * Wraps a D1 binding to count what one invocation asks of it: each statement run and each batch is one
 * query (D1's limit per invocation counts so), each statement one statement, and the rows D1 reports
 * (`meta.rows_read`, `meta.rows_written`) summed. `reset()` starts a new count.
 */
export function meteredD1(real: D1Database) {
  const count: D1Count = { queries: 0, statements: 0, rowsRead: 0, rowsWritten: 0 }
  const add = (meta: Meta | undefined) => {
    count.rowsRead += meta?.rows_read ?? 0
    count.rowsWritten += meta?.rows_written ?? 0
  }
  const reals = new WeakMap<object, D1PreparedStatement>()
  const metered = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (typeof value !== "function") return value
        if (property === "bind") return (...args: unknown[]) => metered(value.apply(target, args))
        if (property !== "all" && property !== "run") return value.bind(target)
        return async (...args: unknown[]) => {
          count.queries++
          count.statements++
          const result = (await value.apply(target, args)) as { meta?: Meta }
          add(result.meta)
          return result
        }
      },
    })
    reals.set(proxy, statement)
    return proxy
  }
  const db = new Proxy(real, {
    get(target, property) {
      if (property === "prepare") return (query: string) => metered(target.prepare(query))
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          count.queries++
          count.statements += statements.length
          const results = await target.batch(statements.map((statement) => reals.get(statement) ?? statement))
          for (const result of results) add(result.meta as Meta)
          return results
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return {
    db,
    read: (): D1Count => ({ ...count }),
    reset: () => Object.assign(count, { queries: 0, statements: 0, rowsRead: 0, rowsWritten: 0 }),
  }
}
