/** Wraps a real D1 binding so that statements matching `failWhen`, and a batch holding one, throw like a D1 outage. */
export function failingD1(real: D1Database, failWhen: (query: string) => boolean = () => true) {
  const calls: string[] = []
  const fail = () => Promise.reject(new Error("D1_ERROR: simulated outage"))
  const failing = new WeakSet<object>()
  const db = new Proxy(real, {
    get(target, property, receiver) {
      if (property === "prepare") {
        return (query: string) => {
          calls.push(query)
          if (failWhen(query)) {
            const statement = {
              bind: () => statement,
              all: fail,
              run: fail,
              raw: fail,
              first: fail,
            }
            failing.add(statement)
            return statement
          }
          return target.prepare(query)
        }
      }
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) =>
          statements.some((statement) => failing.has(statement)) ? fail() : target.batch(statements)
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return { db, calls }
}

/**
 * Wraps a real D1 binding so that a statement for which `answerOf` gives a promise runs (and
 * commits) at once but answers only once that promise settles: a D1 that replies after the
 * caller's deadline. A batch holding such a statement runs at once and answers once all of theirs settle.
 */
export function lateD1(real: D1Database, answerOf: (query: string) => Promise<unknown> | undefined) {
  const calls: string[] = []
  // Each late statement's real one and its answer, so a batch of them runs the real ones.
  const lateOnes = new WeakMap<object, { real: D1PreparedStatement; answer: Promise<unknown> }>()
  const late = (statement: D1PreparedStatement, answer: Promise<unknown>): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (typeof value !== "function") return value
        if (property === "bind") return (...args: unknown[]) => late(value.apply(target, args), answer)
        return async (...args: unknown[]) => {
          const result = await value.apply(target, args)
          await answer
          return result
        }
      },
    })
    lateOnes.set(wrapped, { real: statement, answer })
    return wrapped
  }
  const db = new Proxy(real, {
    get(target, property, receiver) {
      if (property === "prepare") {
        return (query: string) => {
          calls.push(query)
          const answer = answerOf(query)
          return answer === undefined ? target.prepare(query) : late(target.prepare(query), answer)
        }
      }
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const result = await target.batch(statements.map((statement) => lateOnes.get(statement)?.real ?? statement))
          await Promise.all(statements.map((statement) => lateOnes.get(statement)?.answer))
          return result
        }
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return { db, calls }
}

/**
 * Wraps a real D1 binding as one Worker invocation sees D1's limit on queries: each statement run, each
 * batch and each exec counts one, through the binding and through any session of it (`withSession()`), and
 * past `limit` D1 refuses the query, as Cloudflare does (50 on Workers Free, 1,000 on Workers Paid). A fresh
 * wrapper is a fresh invocation.
 */
export function limitedD1(real: D1Database, limit: number) {
  const counter = { queries: 0, refused: 0 }
  const tooMany = () => {
    counter.refused++
    return Promise.reject(new Error("D1_ERROR: Too many API requests by single worker invocation"))
  }
  const take = () => ++counter.queries <= limit
  const reals = new WeakMap<object, D1PreparedStatement>()
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target)
        if (typeof value !== "function") return value
        if (property === "bind") return (...args: unknown[]) => counted(value.apply(target, args))
        return (...args: unknown[]) => (take() ? value.apply(target, args) : tooMany())
      },
    })
    reals.set(proxy, statement)
    return proxy
  }
  const limited = <T extends object>(binding: T): T =>
    new Proxy(binding, {
      get(target, property) {
        const d1 = target as unknown as D1Database
        if (property === "prepare") return (query: string) => counted(d1.prepare(query))
        if (property === "batch") {
          return (statements: D1PreparedStatement[]) =>
            take() ? d1.batch(statements.map((statement) => reals.get(statement) ?? statement)) : tooMany()
        }
        if (property === "exec") return (query: string) => (take() ? d1.exec(query) : tooMany())
        if (property === "withSession") {
          return (constraint?: string) => limited(d1.withSession(constraint as D1SessionConstraint))
        }
        const value = Reflect.get(target, property, target)
        return typeof value === "function" ? value.bind(target) : value
      },
    })
  return { db: limited(real), counter }
}
