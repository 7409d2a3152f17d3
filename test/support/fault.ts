/** Wraps a real D1 binding so that statements matching `failWhen` throw like a D1 outage. */
export function failingD1(real: D1Database, failWhen: (query: string) => boolean = () => true) {
  const calls: string[] = []
  const db = new Proxy(real, {
    get(target, property, receiver) {
      if (property === "prepare") {
        return (query: string) => {
          calls.push(query)
          if (failWhen(query)) {
            const fail = () => Promise.reject(new Error("D1_ERROR: simulated outage"))
            const statement = {
              bind: () => statement,
              all: fail,
              run: fail,
              raw: fail,
              first: fail,
            }
            return statement
          }
          return target.prepare(query)
        }
      }
      if (property === "batch") return () => Promise.reject(new Error("D1_ERROR: simulated outage"))
      const value = Reflect.get(target, property, receiver)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return { db, calls }
}

/**
 * Wraps a real D1 binding so that a statement for which `answerOf` gives a promise runs (and
 * commits) at once but answers only once that promise settles: a D1 that replies after the
 * caller's deadline.
 */
export function lateD1(real: D1Database, answerOf: (query: string) => Promise<unknown> | undefined) {
  const calls: string[] = []
  const late = (statement: D1PreparedStatement, answer: Promise<unknown>): D1PreparedStatement =>
    new Proxy(statement, {
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
  const db = new Proxy(real, {
    get(target, property, receiver) {
      if (property === "prepare") {
        return (query: string) => {
          calls.push(query)
          const answer = answerOf(query)
          return answer === undefined ? target.prepare(query) : late(target.prepare(query), answer)
        }
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return { db, calls }
}
