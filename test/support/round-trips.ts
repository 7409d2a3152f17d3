/**
 * A D1 binding that records each round trip to the real one: a statement run (its first three words)
 * or a batch (its size). Statements that go into a batch are the real ones, so D1 runs them as usual.
 */
export function countingRoundTrips(real: D1Database) {
  const trips: string[] = []
  const reals = new WeakMap<object, D1PreparedStatement>()
  const counted = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const method = Reflect.get(target, property, target)
        if (typeof method !== "function") return method
        if (property === "bind") return (...args: unknown[]) => counted(method.apply(target, args), query)
        return (...args: unknown[]) => {
          trips.push(query.split(/\s+/).slice(0, 3).join(" "))
          return method.apply(target, args)
        }
      },
    })
    reals.set(proxy, statement)
    return proxy
  }
  const db = new Proxy(real, {
    get(target, property) {
      if (property === "prepare") return (query: string) => counted(target.prepare(query), query)
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          trips.push(`batch of ${statements.length}`)
          return target.batch(statements.map((statement) => reals.get(statement) ?? statement))
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return { db, trips }
}
