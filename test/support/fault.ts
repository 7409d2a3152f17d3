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
